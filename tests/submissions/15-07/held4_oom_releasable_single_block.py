"""Held-out gap round 4 (wrong): breaks "`releasable` (total size of segments in which every block is
`"inactive"`)": it counts only segments made of ONE inactive block (rule 7's wording for the model), so a
segment listed as two or more inactive blocks (as a snapshot may show it) is left out of releasable."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"oom_impl": _C["edit"](_C["OOM"], "        if _all_free(seg):\n            releasable",
                                "        if len(seg[\"blocks\"]) == 1 and _all_free(seg):\n            releasable")}
EXPECT = {"oom_diagnosis": "fail"}
