"""Gradient accumulation that forgets to divide each batch's loss by accum_steps (k times too large a step)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

_src = _c["edited"]("trainer_impl", "scaled = loss / self.accum_steps", "scaled = loss")
CELLS = {"trainer_impl": _src}
EXPECT = {"trainer": "fail"}  # the other tasks are the reference's
