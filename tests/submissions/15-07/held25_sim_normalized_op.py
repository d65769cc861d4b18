"""Held-out round 25 (Exercise 2: "Any other op raises an exception that names it"): simulate normalizes the
op's name (`str(op[0]).strip().lower()`) before dispatching, so a misspelt op such as ("Alloc", "a", 10),
("FREE", "a") or ("empty_cache ",) is executed instead of raising."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "    for op in trace:\n"
    "        if op[0] == \"alloc\":\n",
    "    for op in trace:\n"
    "        kind = str(op[0]).strip().lower()\n"
    "        op = (kind, *op[1:])\n"
    "        if op[0] == \"alloc\":\n",
))}
