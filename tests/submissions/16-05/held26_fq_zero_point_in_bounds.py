"""Round 26: the zero point is folded into the clamp bounds, `clamp(round(x * inv), quant_min - zero_point,
quant_max - zero_point) * scale`, which is the same level arithmetic but never adds and subtracts the zero point:
a level that rounds to -0.0 stays -0.0. For every x in (-scale / 2, 0], -0.0 and small negatives, the result is
-0.0, where the text's `(clamp(round(x * inv) + zero_point, ...) - zero_point) * scale` and
torch.fake_quantize_per_tensor_affine give +0.0 (for x = [-0.1, -0.0] with scale 1.0, zero point 0 or 3,
signbit is True here, False in PyTorch: 1 / y is -inf instead of +inf). Values compare equal, gradients are
right. Breaks "returns the float32 tensor (clamp(round(x * inv) + zero_point, quant_min, quant_max) - zero_point)
* scale" and "the result equals torch.fake_quantize_per_tensor_affine(...)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"fake_quant": "fail", "quant": "pass", "observer": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited("16-05", "fake_quant_impl", (
    "        level = torch.round(x * inv) + zero_point\n"
    "        inside = (level >= quant_min) & (level <= quant_max)\n"
    "        ctx.save_for_backward(inside)\n"
    "        return (torch.clamp(level, quant_min, quant_max) - zero_point) * torch.tensor(\n"
    "            scale, dtype=torch.float32, device=x.device)\n",
    "        steps = torch.round(x * inv)  # levels counted from the zero point\n"
    "        lo, hi = quant_min - zero_point, quant_max - zero_point\n"
    "        inside = (steps >= lo) & (steps <= hi)\n"
    "        ctx.save_for_backward(inside)\n"
    "        return torch.clamp(steps, lo, hi) * torch.tensor(scale, dtype=torch.float32, device=x.device)\n"))}
