"""Held-out round 14: each gradient is clamped through p.grad.reshape(-1), which is a view only for a
contiguous .grad; a transposed or strided .grad is copied and the clamp lands on the copy, so that gradient
is not clipped at all. The text: "clamp each existing `.grad` in place into `[-clip_value, clip_value]`"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_grad_value": "fail"}
CELLS = {"clip_value_impl": edited(
    "15-04", "clip_value_impl",
    ("            p.grad.detach().clamp_(min=-clip_value, max=clip_value)\n",
     "            flat = p.grad.detach().reshape(-1)   # one flat vector per gradient\n"
     "            flat.clamp_(min=-clip_value, max=clip_value)\n"))}
