"""Held-out round 25: `_unbroadcast` decides whether broadcasting happened by comparing element counts, not
shapes ("same number of elements: nothing to sum"). For a 0-dim leaf times a `(1,)` leaf the gradient of the
0-dim leaf comes back with shape `(1,)`; for `(0,)` plus `(3, 0)` the `(0,)` leaf gets a `(3, 0)` gradient. The
text: "`out.backward()` ... adds d(out)/d(leaf) into `.grad` of every leaf ..., with the leaf's shape" and
"(both `Value`s, broadcasting like torch)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        g = g.sum_to_size(like.shape) if g.shape != like.shape else g\n",
     "        g = g.sum_to_size(like.shape) if g.numel() != like.numel() else g\n"))}
