"""Known-wrong view_meta (gap round): select checks only the upper bound of its index, so an index
below -size wraps around (index % size) instead of raising IndexError ("a select index out of range
raises IndexError")."""
from course.grading.class_run.submissions import edited

CELLS = {"view_meta_impl": edited("00-01", "view_meta_impl",
    ("        if not -shape[d] <= i < shape[d]:", "        if i >= shape[d]:"))}
EXPECT = {"view_meta": "fail"}
