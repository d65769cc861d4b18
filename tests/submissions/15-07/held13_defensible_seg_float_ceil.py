"""Held-out round 13 (issue 39), written as wrong, kept as defensible: segment_size rounds up to a multiple
of 2 MiB with float division (math.ceil(size / ROUND_LARGE)), exact for every size below 2**62 bytes and
short of the request only beyond. "All three functions take ... nbytes (an int >= 1)" sets no upper end, and
round_size is held to exactness past 2**53 (held9_size_float_ceil), but three older correct examples
(unusual_correct, unusual_correct_2, held2_correct_other_ways) compute segment_size this way and must keep
their verdict, so the checks ask segment_size for sizes up to 2**60 only (open question for the lead: hold
segment_size to every int too, and change those three examples)."""
from course.grading.class_run.submissions import edited

CELLS = {"size_rules_impl": edited("15-07", "size_rules_impl", (
    "    return ROUND_LARGE * ((size + ROUND_LARGE - 1) // ROUND_LARGE)",
    "    return ROUND_LARGE * math.ceil(size / ROUND_LARGE)"))}
EXPECT = {"size_rules": "pass"}
