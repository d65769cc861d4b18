"""Round 14s: QATLinear passes the weight's gradient straight through everywhere ("a symmetric scale never clamps
the weight"), w + (fake_quantize(w) - w).detach(). But the symmetric int8 scale is amax / 127.5, so a largest
positive weight lands on round(127.5) = 128 (halves to even) and is clamped to 127: PyTorch's straight-through
gradient is zero there. The text: "Gradients reach x, the weight and the bias through the straight-through
estimator of your fake_quantize" (the old checks drew weights whose largest element rarely sits on that half
level)."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        w_fq = fake_quantize(self.weight, float(s_w), 0, -128, 127)",
    "        w = self.weight  # a symmetric scale never clamps the weight: its gradient passes straight through\n"
    "        w_fq = w + (fake_quantize(w.detach(), float(s_w), 0, -128, 127) - w.detach())"))}
