"""Held-out round 25, second pass (not counted; written after reading the checks): simulate strips spaces
from the op's name before dispatching (`op[0].strip()`), so ("alloc ", "x", 700) or (" free", "t1") runs as
alloc/free instead of raising. Exercise 2: "Any other op raises an exception that names it"."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "    for op in trace:\n"
    "        if op[0] == \"alloc\":\n",
    "    for op in trace:\n"
    "        op = (op[0].strip(), *op[1:])   # tolerate stray spaces\n"
    "        if op[0] == \"alloc\":\n",
))}
