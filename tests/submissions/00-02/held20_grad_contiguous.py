"""Held-out round 20: a leaf's first `.grad` is `g.contiguous()` ("a real tensor, not an expanded view")
instead of a copy. `.contiguous()` returns g itself when g is already contiguous, so in `((a + b) * c).sum()`
the add rule hands the same tensor to a and b and both `.grad`s are one tensor (a later in-place change to one
changes the other). Gradients straight under `sum()` are expanded views and do get copied. The text: "Each
leaf's `.grad` is a tensor of its own: it shares memory with no other leaf's `.grad` or `.data`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("                v.grad = g.clone() if v.grad is None else v.grad + g\n",
     "                v.grad = g.contiguous() if v.grad is None else v.grad + g\n"))}
