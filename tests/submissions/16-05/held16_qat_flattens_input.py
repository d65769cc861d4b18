"""Wrong: "In training mode, forward(x) first lets act_observer watch x, then returns F.linear(fake_quantize(x,
...), ...)": F.linear keeps x's leading dimensions, (..., in_features) -> (..., out_features). This version
flattens x to (-1, in_features) first ("one batch dimension, as in the demo"), so a 1-D input gives (1, M)
and a (B, T, K) input gives (B*T, M) instead of (B, T, M)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        if self.training:\n            self.act_observer(x)\n",
    "        x = x.reshape(-1, self.in_features)\n        if self.training:\n            self.act_observer(x)\n"))}
