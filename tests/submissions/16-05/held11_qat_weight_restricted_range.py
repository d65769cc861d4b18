"""Held-out round 11: QATLinear fake-quantizes the weight on the restricted symmetric range [-127, 127] (as
some int8 backends do), so a weight that rounds to level -128 is clamped to -127 and loses its gradient; the
text says the weight goes through fake_quantize(weight, s_w, 0, -128, 127)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited(
    "16-05", "qat_impl",
    ("        w_fq = fake_quantize(self.weight, float(s_w), 0, -128, 127)\n",
     "        w_fq = fake_quantize(self.weight, float(s_w), 0, -127, 127)\n"))}
