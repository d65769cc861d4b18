"""Held-out gap round 4 (wrong): breaks "`device` is a string or `torch.device`; for CUDA use events and
synchronize": it recognises CUDA only by the exact text "cuda", so device="cuda:0" (or torch.device("cuda", 0))
takes the CPU path: perf_counter around the calls with no synchronize, which times the kernel launches only."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"timing_impl": _C["edit"](_C["TIMING"], '    if dev.type == "cuda":\n', '    if str(device) == "cuda":\n')}
EXPECT = {"cuda_timing": "fail"}
