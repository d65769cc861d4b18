"""bubble_fraction takes T from the last tuple of the list, assuming it is sorted by time. Breaks: "for any
list of such tuples (sorted or not), with T = 1 + the largest time step in it"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edit("schedule_impl", (
    "T = 1 + max(t for t, *_ in schedule)", "T = 1 + schedule[-1][0]"))}
