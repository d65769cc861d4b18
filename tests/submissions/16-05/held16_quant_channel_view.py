"""Wrong: "Both take tensors of any shape and memory layout (zero-size and 0-dim included)". The per-channel
path splits x with .view(outer, C, inner), which works for a contiguous x only: a transposed or otherwise
non-contiguous x with an integer axis raises instead of giving torch.quantize_per_channel's levels (the
per-tensor path and dequantize are the reference's)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    """    if axis is not None:
        scale, zero_point = _broadcast(scale, axis, x.dim()), _broadcast(zero_point, axis, x.dim())
    inv = 1.0 / scale
    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)""",
    """    if axis is not None:
        axis = axis % x.dim()
        C = x.shape[axis]
        outer = 1
        for n in x.shape[:axis]:
            outer *= n
        inner = 1
        for n in x.shape[axis + 1:]:
            inner *= n
        x3 = x.view(outer, C, inner)  # (outer, C, inner): the channel in the middle
        inv = 1.0 / scale.view(1, C, 1)
        q = torch.clamp(torch.round(x3 * inv) + zero_point.view(1, C, 1), info.min, info.max)
        return q.to(dtype).view(x.shape)
    inv = 1.0 / scale
    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)"""))}
