"""Fake-quantizes only the input; the weight stays float, so training never sees the weight's rounding."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", ("return F.linear(x_fq, w_fq, self.bias)", "return F.linear(x_fq, self.weight, self.bias)"))}
