"""Round 14s: select wraps a negative dimension with `% n` and checks only the upper bound, so select(-3, i) on a
2-dim header picks dimension 1 instead of raising. The text: "Dimensions may be negative, as in PyTorch; a
dimension out of range raises IndexError" (the old checks named only dimensions past the end for select)."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "fail"}
CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl", (
    "d, i = wrap(args[0]), args[1]", "d, i = (args[0] % n if args[0] < 0 else wrap(args[0])), args[1]"))}
