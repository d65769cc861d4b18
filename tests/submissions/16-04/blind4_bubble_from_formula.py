"""bubble_fraction ignores the schedule's slots and returns the closed form (S - 1) / (M + S - 1), with M
read off the largest micro-batch index: right for GPipe and 1F1B, wrong for any other list. Breaks:
"`bubble_fraction(schedule, S)`: for any list of such tuples (sorted or not), with T = 1 + the largest time
step in it, return the fraction of the S·T (stage, step) slots in which no operation runs".
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edit("schedule_impl", (
    "    T = 1 + max(t for t, *_ in schedule)\n"
    "    busy = len({(t, s) for t, s, _, _ in schedule})\n"
    "    return float(1 - busy / (S * T))\n",
    "    M = 1 + max(op[3] for op in schedule)\n"
    "    return (S - 1) / (M + S - 1)\n"))}
