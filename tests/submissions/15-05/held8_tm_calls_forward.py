"""Held-out gap round 8 (wrong): breaks "run both the trace and the eager `model` on it": the eager side calls
`model.forward(x)` instead of `model(x)`, which skips the module's hooks. torch.jit.trace records what calling
the module does (forward hooks included), so a model with a forward hook is flagged on every input although the
trace and the eager model agree."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

CELLS = {"trace_mismatches_impl": _C["edit"](_C["TRACE"], "model(x)))", "model.forward(x)))")}
EXPECT = {"trace_mismatches": "fail"}
