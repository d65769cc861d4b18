"""Wrong: "rescales param.grad in place so its L2 norm is at most max_norm (multiply by max_norm / norm
when norm > max_norm ...)". This version treats max_norm = 0 as "clipping off" (if max_norm and norm >
max_norm), so attach_grad_clipping(model, 0.0) leaves every gradient as it was, where the text asks for
gradients of norm at most 0 (multiplied by 0 / norm)."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited(
    "15-01", "grad_clip_impl",
    ("        if norm > max_norm:\n", "        if max_norm and norm > max_norm:\n"))}
