"""The step count kept once per param group (incremented for every step() call) instead of per parameter, so a
parameter that missed a gradient gets the bias correction of a later step."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("adamw")
_cell = _c["edited"]("adamw_impl", 'lr, (b1, b2), eps, wd = group["lr"]',
                     'group["t"] = group.get("t", 0) + 1\n            lr, (b1, b2), eps, wd = group["lr"]')
CELLS = {"adamw_impl": _cell.replace('t = int(state["step"]) + 1', 't = group["t"]')}
