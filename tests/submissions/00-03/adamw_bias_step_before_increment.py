"""Bias correction computed with the step count before it is incremented (t - 1), guarded against t = 0 by
skipping the correction on the first step."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("adamw")
_cell = _c["edited"]("adamw_impl", "denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps",
                     "c1, c2 = (1 - b1 ** (t - 1), 1 - b2 ** (t - 1)) if t > 1 else (1.0, 1.0)\n"
                     "                denom = (v / c2).sqrt() + eps")
CELLS = {"adamw_impl": _cell.replace("value=-lr / (1 - b1 ** t)", "value=-lr / c1")}
