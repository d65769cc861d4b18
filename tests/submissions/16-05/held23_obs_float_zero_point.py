"""Round 23: calculate_qparams returns the affine zero point as a float32 tensor, `clamp(qmin - round(lo / scale),
qmin, qmax)` without converting to an integer type (torch.round returns floats). Its values are the right
integers, and QATLinear's int(z_x) hides it. Contradicts "calculate_qparams() returns (scale, zero_point), a
float32 tensor and an integer tensor (int32 or int64)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "self.qmin - torch.round(lo / scale).to(torch.int64)",
    "self.qmin - torch.round(lo / scale)"))}
