"""Known-wrong label smoothing (gap round): checks the range as `smoothing < 0 or smoothing > 1`, which lets
smoothing = nan through (every comparison with nan is False) and returns a nan loss; nan is not in [0, 1], and
F.cross_entropy refuses it too."""
from course.grading.class_run.submissions import edited

CELLS = {"label_smoothing_impl": edited("15-04", "label_smoothing_impl",
    ("    if not 0.0 <= smoothing <= 1.0:", "    if smoothing < 0.0 or smoothing > 1.0:"))}
EXPECT = {"label_smoothing": "fail"}
