"""Round 30: dequantize per channel broadcasts the zero point by unsqueezing the caller's int64 tensor in place
(`torch.as_tensor` hands back the same tensor, and `unsqueeze_` changes its shape for every axis but the last):
the values returned are right, but after `dequantize(q, s, z, axis=0)` on q of shape (4, 6) the caller's `z` has
shape (4, 1). Breaks "Both take tensors of any shape ... and leave their inputs unchanged"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "        scale, zero_point = _broadcast(scale, axis, q.dim()), _broadcast(zero_point, axis, q.dim())\n",
    "        scale = _broadcast(scale, axis, q.dim())\n"
    "        for _ in range(q.dim() - 1 - axis % q.dim()):\n"
    "            zero_point.unsqueeze_(-1)\n"))}
