"""Round 23: quantize inverts the scale in place, `inv = scale.reciprocal_()`, after `torch.as_tensor(scale,
dtype=torch.float32, device=x.device)`, believing as_tensor copies. For a Python float scale it does, so per
tensor nothing shows; per channel the caller's float32 scale tensor is already float32 on x's device, as_tensor
returns that same tensor, and the call overwrites the caller's scales with their inverses. The levels of this
call are right; the next call with the same scales (dequantize, or quantize again) gets 1 / scale. Contradicts
"Both take tensors of any shape and memory layout ... and leave their inputs unchanged" (scale is an input)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    inv = 1.0 / scale\n    return torch.clamp(torch.round(x * inv)",
    "    inv = scale.reciprocal_()  # one float32 inverse, no extra tensor\n"
    "    return torch.clamp(torch.round(x * inv)"))}
