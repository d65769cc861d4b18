"""Known-wrong view_meta (gap round): view merges old dimensions into blocks without skipping the
size-1 ones, so a size-1 dimension with an unrelated stride (as a slice t[:, 1:2] leaves) splits a
block and view raises where PyTorch's view succeeds ("strides of dimensions of size 1 are never used")."""
from course.grading.class_run.submissions import edited

CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ("            if size == 1:\n                continue\n", ""))}
EXPECT = {"view_meta": "fail"}
