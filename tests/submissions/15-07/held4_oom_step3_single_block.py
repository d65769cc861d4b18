"""Held-out gap round 4 (wrong): breaks step 3 "release every fully free cached segment ... and retry
cudaMalloc once": it only releases segments listed as exactly one inactive block, so a fully free segment shown
as several inactive blocks is not counted and will_oom says True where the retry would succeed."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"oom_impl": _C["edit"](_C["OOM"], "for seg in segments if _all_free(seg))",
                                "for seg in segments if len(seg[\"blocks\"]) == 1 and _all_free(seg))")}
EXPECT = {"oom_diagnosis": "fail"}
