"""Held-out round 3: quantized_linear multiplies with torch.mm, which takes 2-D matrices only: qx of shape
(..., K) with one or several leading dimensions (or none) raises, although the task says qx is (..., K)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "fail", "qat": "pass"}
CELLS = {"qlinear_impl": edited(
    "16-05", "qlinear_impl",
    ("acc = (qx.to(torch.int32) - x_zero_point) @ qw.to(torch.int32).T",
     "acc = torch.mm(qx.to(torch.int32) - x_zero_point, qw.to(torch.int32).t())"))}
