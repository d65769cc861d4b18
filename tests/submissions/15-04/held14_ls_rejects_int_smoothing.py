"""Held-out round 14: the validation insists on a float, so smoothing=0 or smoothing=1 written as Python
ints (both in [0, 1]) raise ValueError. The text: "It must agree with F.cross_entropy(...,
label_smoothing=...) for every `smoothing` in `[0, 1]`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "fail"}
CELLS = {"label_smoothing_impl": edited(
    "15-04", "label_smoothing_impl",
    ("    if not 0.0 <= smoothing <= 1.0:\n",
     "    if not isinstance(smoothing, float) or not 0.0 <= smoothing <= 1.0:\n"))}
