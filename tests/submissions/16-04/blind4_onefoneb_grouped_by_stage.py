"""one_f_one_b_schedule returns the right operations grouped stage by stage (all of stage 0, then stage 1,
...), not in time order. Breaks: "returns a list of tuples `(t, s, kind, m)` ..., sorted by time step, then
stage."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edit("schedule_impl", (
    "    return _plan(S, M, True)\n",
    "    ops = _plan(S, M, True)\n"
    "    return [op for s in range(S) for op in ops if op[1] == s]\n"))}
