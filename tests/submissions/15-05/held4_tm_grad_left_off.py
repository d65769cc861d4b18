"""Held-out gap round 4 (wrong): breaks "Run everything, the trace included, under `torch.no_grad()`": instead of
the context manager it calls torch.set_grad_enabled(False) and never switches it back, so after
trace_mismatches returns, autograd stays off for the caller (a later loss.backward() raises)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

_src = _C["edit"](_C["TRACE"], "    flags = []\n", "    flags = []\n    torch.set_grad_enabled(False)\n")
CELLS = {"trace_mismatches_impl": _C["edit"](_src, "        with torch.no_grad():\n", "        if True:\n")}
EXPECT = {"trace_mismatches": "fail"}
