"""Round 12 (held out): each leaf accumulates into a private buffer and .grad is a copy of it. Two
backward() calls add up, an unused leaf keeps None, but after the caller clears .grad (a.grad = None, as
zero_grad does) the next backward() brings the old gradients back: it does not add "into .grad"."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited("00-02", "engine_impl", (
    "                v.grad = g.clone() if v.grad is None else v.grad + g\n",
    "                v._acc = g.clone() if getattr(v, \"_acc\", None) is None else v._acc + g\n"
    "                v.grad = v._acc.clone()\n"))}
