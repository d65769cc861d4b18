"""Round 19: quantize inverts the scale in place, `inv = scale.reciprocal_()`, "to save a copy". Per tensor the
scale is a tensor made from the Python float, so nothing leaks; per channel `torch.as_tensor` hands back the
caller's own float32 scale tensor (a reshaped view of it), and the call leaves 1 / scale in it. The levels of the
call itself are right. The text: "Both take tensors of any shape and memory layout (zero-size and 0-dim included)
and leave their inputs unchanged" (the per-channel `scale` is an input)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    inv = 1.0 / scale\n",
    "    inv = scale.reciprocal_()  # in place: the scale is not needed again\n"))}
