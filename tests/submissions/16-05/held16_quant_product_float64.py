"""Wrong: "Each level is clamp(round(x * inv) + zero_point, qmin, qmax), where inv = 1 / scale is computed in
float32 ... so that the result equals torch.quantize_per_tensor(...).int_repr() exactly". The inverse is the
float32 one, but the product x * inv is taken in float64 "for precision": PyTorch multiplies in float32, whose
rounding can land exactly on a half (then halves go to even) where the float64 product lies just beside it."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "fail", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"quant_impl": edited("16-05", "quant_impl", (
    "    return torch.clamp(torch.round(x * inv) + zero_point, info.min, info.max).to(dtype)",
    "    return torch.clamp(torch.round(x.double() * inv.double()) + zero_point, info.min, info.max).to(dtype)"))}
