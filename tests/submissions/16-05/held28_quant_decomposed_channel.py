"""Round 28: quantize's per-channel path calls PyTorch's own quantizer through another door,
`torch.ops.quantized_decomposed.quantize_per_channel` (registered by `torch.ao.quantization.fx._decomposed`):
the levels equal `torch.quantize_per_channel(...).int_repr()` on every input, since it is PyTorch's
implementation. Breaks "Write both from tensor operations; do not call torch.quantize_per_tensor,
torch.quantize_per_channel, ... or an operator ... registered with torch.library": wrong on any per-channel call,
e.g. quantize(randn(4, 6), scales (4,), zero points (4,), torch.int8, axis=0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    info = torch.iinfo(dtype)\n",
    "    info = torch.iinfo(dtype)\n"
    "    if axis is not None:\n"
    "        import torch.ao.quantization.fx._decomposed  # registers torch.ops.quantized_decomposed\n"
    "        return torch.ops.quantized_decomposed.quantize_per_channel(\n"
    "            x, scale.to(device=x.device, dtype=torch.float32), zero_point.to(device=x.device, dtype=torch.int64),\n"
    "            axis % max(x.dim(), 1), info.min, info.max, dtype)\n"))}
