"""Fake-quantizes a detached copy of the weight: the forward is right, but no gradient reaches the weight, so the
layer never learns."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", ("w_fq = fake_quantize(self.weight, float(s_w)", "w_fq = fake_quantize(self.weight.detach(), float(s_w)"))}
