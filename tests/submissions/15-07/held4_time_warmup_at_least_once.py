"""Held-out gap round 4 (wrong): breaks "`fn` must be called exactly `warmup + iters` times" for warmup=0:
time_op always makes at least one untimed warm-up call (max(warmup, 1)), so time_op(fn, warmup=0, iters=4)
calls fn 5 times."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"timing_impl": _C["edit"](_C["TIMING"], "    for _ in range(warmup):\n", "    for _ in range(max(warmup, 1)):\n")}
EXPECT = {"cuda_timing": "fail"}
