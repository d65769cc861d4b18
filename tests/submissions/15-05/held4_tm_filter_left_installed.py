"""Held-out gap round 4 (wrong): breaks "ignore that category inside your function (with
`warnings.catch_warnings()`)": it adds the TracerWarning 'ignore' filter to the process's filters with no
catch_warnings around it, so the filter outlives the call and the caller never sees a TracerWarning again."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"trace_mismatches_impl": _C["edit"](_C["TRACE"], "    with warnings.catch_warnings():\n", "    if True:\n")}
EXPECT = {"trace_mismatches": "fail"}
