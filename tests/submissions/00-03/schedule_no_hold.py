"""Uses the cosine formula for every step after the warm-up, so past total_steps the rate rises again."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("schedule")
CELLS = {"schedule_impl": _c["edited"]("schedule_impl", """    if step > total_steps:
        return float(eta_min)
""", "")}
