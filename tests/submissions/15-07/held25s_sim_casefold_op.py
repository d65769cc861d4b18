"""Held-out round 25, second pass (not counted; written after reading the checks): simulate compares the op's
name case-insensitively (`op[0].casefold() == "alloc"`, ...), so ("Free", "t1") or ("EMPTY_CACHE",) runs
instead of raising. Exercise 2: "Any other op raises an exception that names it"."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "    for op in trace:\n"
    "        if op[0] == \"alloc\":\n",
    "    for op in trace:\n"
    "        op = (op[0].casefold(), *op[1:])\n"
    "        if op[0] == \"alloc\":\n",
))}
