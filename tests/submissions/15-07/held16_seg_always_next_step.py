"""Known-wrong segment_size (round 16): for rounded sizes of 10 MiB or more it adds a 2 MiB step after integer
division, so an exact multiple of 2 MiB (10 MiB, 12 MiB, ...) gets 2 MiB more than rule 3's "exactly the
rounded size, rounded up to a multiple of 2 MiB". The visible 11 MiB -> 12 MiB example passes."""
from course.grading.class_run.submissions import edited

CELLS = {"size_rules_impl": edited(
    "15-07", "size_rules_impl",
    ("    return ROUND_LARGE * ((size + ROUND_LARGE - 1) // ROUND_LARGE)",
     "    return ROUND_LARGE * (size // ROUND_LARGE + 1)"))}
EXPECT = {"size_rules": "fail"}
