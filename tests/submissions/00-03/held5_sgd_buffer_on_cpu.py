"""Held-out gap-hunting round 5 (issue 39): breaks "every parameter equals what torch.optim.SGD with the same
arguments gives" for parameters off the CPU (the notebook trains on DEVICE). The first momentum buffer is
made with torch.zeros(shape, dtype=...) on the default device and then filled with d, so a step on a GPU (or
meta) parameter raises a device mismatch instead of stepping; on CPU parameters it is exactly right."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"sgd": "fail"}
CELLS = {"sgd_impl": edit("sgd_impl", (
    "                        buf = d.clone()\n",
    "                        buf = torch.zeros(tuple(d.shape), dtype=d.dtype).add_(d)\n"))}
