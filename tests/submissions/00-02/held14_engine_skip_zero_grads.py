"""Held-out round 14: backward skips a node whose incoming gradient is all zeros ("nothing to send"), so a
leaf reached only through relu of negative values, or multiplied by zeros, keeps `.grad` None where torch
gives a zero gradient. The text: "adds d(out)/d(leaf) into `.grad` of every leaf `out` depends on"; only "a
leaf the output does not depend on keeps `.grad` as `None`" (the leaf here is in the graph)."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("            g = grads.pop(id(v), None)\n            if g is None:\n                continue",
     "            g = grads.pop(id(v), None)\n            if g is None or not bool((g != 0).any()):\n                continue"))}
