"""Round 30: dequantize wraps the levels into a PyTorch quantized tensor
(`torch._make_per_tensor_quantized_tensor` / `torch._make_per_channel_quantized_tensor`) and calls the function
`torch.dequantize` on it: the values equal PyTorch's on the CPU, but it is PyTorch's dequantizer, not tensor
operations. Breaks "Write both from tensor operations; do not call ... `Tensor.dequantize`" (the function form
is the same operator); on a device without quantized kernels it fails."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    scale = torch.as_tensor(scale, dtype=torch.float32, device=q.device)\n"
    "    zero_point = torch.as_tensor(zero_point, dtype=torch.int64, device=q.device)\n"
    "    if axis is not None:\n"
    "        scale, zero_point = _broadcast(scale, axis, q.dim()), _broadcast(zero_point, axis, q.dim())\n"
    "    return (q.to(torch.int64) - zero_point).to(torch.float32) * scale\n",
    "    if axis is None:\n"
    "        qt = torch._make_per_tensor_quantized_tensor(q.contiguous(), float(scale), int(zero_point))\n"
    "    else:\n"
    "        qt = torch._make_per_channel_quantized_tensor(q.contiguous(), scale.to(torch.float64),\n"
    "                                                      zero_point.to(torch.int64), axis % q.dim())\n"
    "    return torch.dequantize(qt)\n"))}
