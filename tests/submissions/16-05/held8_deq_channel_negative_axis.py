"""Held-out round 8: dequantize shapes a per-channel scale as (C, 1, ..., 1) with q.dim() - axis - 1 trailing ones,
which broadcasts right for a non-negative axis but not for a negative one (axis=-1 gets q.dim() trailing ones);
the text says dequantize works per channel "as above", where a negative axis counts from the end."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited(
    "16-05", "quant_impl",
    ("        scale, zero_point = _broadcast(scale, axis, q.dim()), _broadcast(zero_point, axis, q.dim())\n"
     "    return (q.to(torch.int64)",
     "        tail = [1] * (q.dim() - axis - 1)\n"
     "        scale, zero_point = scale.reshape([-1] + tail), zero_point.reshape([-1] + tail)\n"
     "    return (q.to(torch.int64)"))}
