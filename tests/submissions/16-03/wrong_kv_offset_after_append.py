"""Reads the number of cached positions after appending the new keys: the mask's offset is too large by T, so a
chunk of several new tokens sees its own future."""
from course.grading.class_run.submissions import edited

EXPECT = {"kv_cache": "fail"}
CELLS = {"kv_impl": edited("16-03", "kv_impl", (
    """            past = len(cache)
            k, v = cache.update(k, v)""",
    """            k, v = cache.update(k, v)
            past = len(cache)"""))}
