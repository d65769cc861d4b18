"""Round 30: quantize per channel runs the per-tensor path once per index along `axis` and stacks the slices
(`torch.stack([...], dim=axis)`): right for every C >= 1, but with zero channels (x of shape (2, 0), axis=1,
scale and zero_point of shape (0,)) the list is empty and `torch.stack` raises, where
`torch.quantize_per_channel` returns an empty (2, 0) tensor. Breaks "Both take tensors of any shape and memory
layout (zero-size and 0-dim included)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    info = torch.iinfo(dtype)\n"
    "    scale = torch.as_tensor(scale, dtype=torch.float32, device=x.device)\n",
    "    if axis is not None:\n"
    "        axis = axis % x.dim()\n"
    "        return torch.stack([quantize(x.select(axis, i), scale[i], zero_point[i], dtype)\n"
    "                            for i in range(x.shape[axis])], dim=axis)\n"
    "    info = torch.iinfo(dtype)\n"
    "    scale = torch.as_tensor(scale, dtype=torch.float32, device=x.device)\n"))}
