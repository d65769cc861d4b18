"""Known-wrong reshape_is_view (gap round): says a tensor with no elements is always copied, where
PyTorch's reshape returns a view ("zero-size ones included")."""
from course.grading.class_run.submissions import edited

CELLS = {"reshape_view_impl": edited("00-01", "reshape_view_impl",
    ("    try:\n", "    if 0 in tuple(shape):\n        return False\n    try:\n"))}
EXPECT = {"reshape_view": "fail"}
