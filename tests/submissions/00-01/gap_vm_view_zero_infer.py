"""Known-wrong view_meta (gap round): a -1 next to a size 0 is inferred as 0 instead of raising, so
view((0, -1)) of a tensor with no elements succeeds where PyTorch raises ("a view ... that cannot infer
its -1" raises RuntimeError)."""
from course.grading.class_run.submissions import edited

CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ("            if known == 0 or numel % known:", "            if known and numel % known:"),
    ("            new[new.index(-1)] = numel // known", "            new[new.index(-1)] = numel // known if known else 0"))}
EXPECT = {"view_meta": "fail"}
