"""Wrong: "Each level is clamp(round(x * inv) + zero_point, qmin, qmax), where inv = 1 / scale is computed in
float32 ..." holds per channel too ("the result equals torch.quantize_per_channel(...).int_repr()"). This
version multiplies by the float32 inverse per tensor, but per channel it divides, x / scale: for some x the
quotient differs from x * (1 / scale) in the last bit next to a half, and the level moves."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    """        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())
    inv = 1.0 / scale
    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)""",
    """        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())
        return torch.clamp(torch.round(x / scale) + zero_point, info.min, info.max).to(dtype)
    inv = 1.0 / scale
    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)"""))}
