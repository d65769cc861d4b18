"""Held-out round 23: backward skips an operation whose incoming gradient is all zeros (an optimization: nothing
to send back). When every element of `(a * b).relu()` is negative, relu sends zeros to the product, the product
is skipped, and `a` and `b` keep `.grad` None, where torch gives them zeros. The text: "`out.backward()` ... adds
d(out)/d(leaf) into `.grad` of every leaf `out` depends on" and "a leaf the output does not depend on keeps
`.grad` as `None`" (only those)."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("            g = grads.pop(id(v), None)\n"
     "            if g is None:\n",
     "            g = grads.pop(id(v), None)\n"
     "            if g is None or (v._parents and not g.any()):\n"))}
