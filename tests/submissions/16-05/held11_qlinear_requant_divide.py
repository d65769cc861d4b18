"""Held-out round 11: quantized_linear requantizes with round(y / out_scale) + out_zero_point instead of
calling its quantize (x * inv with inv = 1 / float32(out_scale)); the text says y is requantized like your
quantize, and the two differ next to a half."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "fail", "qat": "pass"}
CELLS = {"qlinear_impl": edited(
    "16-05", "qlinear_impl",
    ("    return quantize(y, out_scale, out_zero_point, torch.uint8)\n",
     "    s = torch.tensor(out_scale, dtype=torch.float32, device=y.device)\n"
     "    return torch.clamp(torch.round(y / s) + out_zero_point, 0, 255).to(torch.uint8)\n"))}
