"""Known-wrong simulate (round 18, restructured as the text allows): an op that is none of alloc/free/
empty_cache is skipped silently and its row of stats repeats the previous state. simulate's contract (the
given code) raises ValueError("unknown op ...") for it, and the text says any other op raises an exception that
names it: a misspelt op must not pass as a no-op."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ('        elif op[0] == "empty_cache":\n            model.empty_cache()\n'
     '        else:\n            raise ValueError(f"unknown op {op!r}")\n',
     '        elif op[0] == "empty_cache":\n            model.empty_cache()\n'))}
EXPECT = {"allocator_model": "fail"}
