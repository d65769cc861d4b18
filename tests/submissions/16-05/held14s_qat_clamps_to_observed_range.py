"""Round 14s: QATLinear clamps x to its observer's recorded range [min_val, max_val] "so the fake quantization
only sees calibrated values" before fake-quantizing it. On inputs of both signs the grid [(0 - z) s, (255 - z) s]
is that range to half a step, so outputs agree and only x within half a step past the range loses its gradient;
but on all-positive inputs (after a ReLU) the grid starts at 0 while min_val > 0, so x in [0, min_val) is moved
up and its gradient is zero. The text: "Gradients reach x ... through the straight-through estimator of your
fake_quantize" (zero only where round(x * inv) + z_x leaves [0, 255]); the old checks read the gradient on one
mixed-sign input per mode."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        x_fq = fake_quantize(x, float(s_x), int(z_x), 0, 255)",
    "        x = x.clamp(self.act_observer.min_val, self.act_observer.max_val)  # only calibrated values\n"
    "        x_fq = fake_quantize(x, float(s_x), int(z_x), 0, 255)"))}
