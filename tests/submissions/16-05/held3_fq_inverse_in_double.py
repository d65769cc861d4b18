"""Held-out round 3: fake_quantize takes the inverse of the Python float scale in double precision, 1.0 / scale,
and multiplies the float32 x by it; the task says inv as in exercise 1, 1 / float32(scale) in float32 (the two
differ in the last bit for many scales, and next to a half that moves the level)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "fail", "qlinear": "pass", "qat": "pass"}
CELLS = {"fake_quant_impl": edited(
    "16-05", "fake_quant_impl",
    ("inv = 1.0 / torch.tensor(scale, dtype=torch.float32, device=x.device)", "inv = 1.0 / scale"))}
