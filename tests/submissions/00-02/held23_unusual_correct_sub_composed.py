"""Held-out round 23, correct: `a - b` is built from the other operations, `self + (-other)`: the value is
IEEE's a - b exactly (signed zeros and infinities included), and the gradient reaches `b` through the negation's
node, summed back to `b`'s shape and dtype by the addition's rule."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        a, b = self.data, other.data\n"
     "        return Value(a - b, (self, other), lambda g: (self._unbroadcast(g, a), self._unbroadcast(-g, b)))\n",
     "        return self + (-other)\n"))}
