"""Counts warm-up steps from 1 ((step + 1) / warmup_steps), so the warm-up reaches base_lr one step early."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("schedule")
CELLS = {"schedule_impl": _c["edited"]("schedule_impl", "* step / warmup_steps", "* (step + 1) / warmup_steps")}
