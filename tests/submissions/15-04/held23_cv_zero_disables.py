"""Held-out round 23: a clip_value of 0 is read as "no clipping" and returns early; clip_grad_value_ with
0 clamps every gradient entry into [-0, 0], i.e. zeroes it. The text: "clamp each existing `.grad` in
place into `[-clip_value, clip_value]`" (same semantics as clip_grad_value_)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_value": "fail"}
CELLS = {"clip_value_impl": edited(
    "15-04", "clip_value_impl",
    ("    clip_value = float(clip_value)\n",
     "    clip_value = float(clip_value)\n"
     "    if not clip_value:                         # 0 means clipping is off\n"
     "        return None\n"))}
