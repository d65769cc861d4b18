"""Held-out round 11: the fused setup_context saves x with save_for_backward but keeps the mask as a float
factor on ctx, ctx.scale = keep.to(x.dtype) / (1 - p), and the backward multiplies by it. Values and
gradients are right, and a saved_tensors_hooks count sees only x (4 bytes per float32 element, under the
visible 5-byte bound); but a full-size float copy of the mask stays alive until the backward. The text says
"For the backward it saves only x and the boolean keep (at most x's bytes plus one byte per element), not
the output and not a float copy of the mask"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited(
    "16-01", "fused_impl",
    ("    ctx.save_for_backward(x, keep)\n",
     "    ctx.save_for_backward(x)\n"
     "    ctx.scale = keep.to(x.dtype) / (1 - p)  # mask and 1 / (1 - p) in one factor\n"),
    ("    x, keep = ctx.saved_tensors\n", "    (x,) = ctx.saved_tensors\n"),
    ("    return grad * keep / (1 - ctx.p) * d, None, None\n", "    return grad * ctx.scale * d, None, None\n"))}
