"""Round 23, second pass (not counted): per channel, dequantize shapes the scale and zero point for broadcasting
with in-place unsqueeze_ calls (no new tensor, it thinks) instead of a reshape. torch.as_tensor returns the caller's
float32 scale and int64 zero point themselves, so after the call the caller's 1-D (C,) tensors have become
(C, 1, ...): the values returned are right, and the next per-channel call with the same scale (or PyTorch's
quantize_per_channel, which wants 1-D) gets the wrong shape. Contradicts "Both take tensors ... and leave their
inputs unchanged" (scale and zero_point are inputs)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    if axis is not None:\n"
    "        scale, zero_point = _broadcast(scale, axis, q.dim()), _broadcast(zero_point, axis, q.dim())\n"
    "    return (q.to(torch.int64)",
    "    if axis is not None:\n"
    "        for _ in range(q.dim() - 1 - axis % q.dim()):  # trailing singleton dims, in place\n"
    "            scale.unsqueeze_(-1)\n"
    "            zero_point.unsqueeze_(-1)\n"
    "    return (q.to(torch.int64)"))}
