"""Held-out round 13: a window as long as the last dimension is treated as "too large" and gives an empty
result. The text: empty only "When size is larger than the last dimension"; otherwise shape, strides and
values equal x.unfold(-1, size, step) (one window when size == x.shape[-1])."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "fail"}
CELLS = {"windows_impl": edited(
    "00-01", "windows_impl",
    ("count = max(0, (length - size) // step + 1)",
     "count = (length - size) // step + 1 if size < length else 0"))}
