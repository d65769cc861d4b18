"""Held-out gap round 8 (wrong): breaks "Return a list of Python `bool`s, one per input": the flags are gathered
with torch.stack and turned into a list at the end, so an empty `inputs` list (zero inputs, zero flags: `[]`)
raises "stack expects a non-empty TensorList" instead of returning an empty list."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

_src = _C["edit"](_C["TRACE"], "result.append(not torch.allclose(traced(x), model(x)))",
                  "result.append(torch.tensor(not torch.allclose(traced(x), model(x))))")
CELLS = {"trace_mismatches_impl": _C["edit"](_src, "    return result\n",
                                             "    return [bool(f) for f in torch.stack(result)]\n")}
EXPECT = {"trace_mismatches": "fail"}
