"""Held-out round 29 (15-07 allocator_model): `op[0] in ("empty_cache")` - a one-tuple without its comma.

Violates "Any other op raises an exception that names it": ("empty_cache") is a string, so the test is a
substring test and unknown ops such as ("cache",), ("empty",), ("e",) or ("",) are run as empty_cache
instead of raising. Wrong on simulate([("alloc", "a", 4096), ("cache",)]).
"""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    '        elif op[0] == "empty_cache":',
    '        elif op[0] in ("empty_cache"):'))}
EXPECT = {"allocator_model": "fail"}
