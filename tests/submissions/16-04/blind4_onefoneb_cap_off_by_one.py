"""1F1B lets a stage start a forward while S - s micro-batches are already in flight (<= instead of <),
one more than allowed. Breaks: "otherwise its next forward, if that forward's dependency is met and fewer than
S - s micro-batches are in flight on stage s"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edit("schedule_impl", ("f - b < S - s", "f - b <= S - s"))}
