"""Held-out round 3: QATLinear adds its bias after F.linear, F.linear(x_fq, w_fq) + self.bias: with bias=False
(self.bias is None) forward raises TypeError, although the task says bias=False makes a layer without one."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited(
    "16-05", "qat_impl",
    ("return F.linear(x_fq, w_fq, self.bias)", "return F.linear(x_fq, w_fq) + self.bias"))}
