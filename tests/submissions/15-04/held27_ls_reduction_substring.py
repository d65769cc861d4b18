"""Held-out round 27: the reduction is validated with one membership test on a single string,
`if reduction not in "mean sum none"`: a substring test, so "" , "m", "ea" or "sum none" pass the guard
and fall through to the per-sample losses. The text: "Raises ValueError for smoothing outside [0, 1] or an
unknown reduction" (docstring), and "It must agree with F.cross_entropy(...) ... every reduction":
F.cross_entropy(reduction="") raises ValueError."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ('    if reduction not in ("mean", "sum", "none"):\n',
     '    if reduction not in "mean sum none":   # one membership test on the three names\n'))}
