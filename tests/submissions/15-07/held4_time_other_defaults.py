"""Held-out gap round 4 (wrong): breaks the signature "`time_op(fn, warmup=3, iters=10, device="cpu")`": its
defaults are warmup=1 and iters=5, so time_op(fn) calls fn 6 times instead of 13 and averages 5 calls."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"timing_impl": _C["edit"](_C["TIMING"], "warmup: int = 3, iters: int = 10,", "warmup: int = 1, iters: int = 5,")}
EXPECT = {"cuda_timing": "fail"}
