"""Round 30: in training mode QATLinear takes (s_x, z_x) from the observer's state BEFORE it watches x and lets
the observer watch x only after the output is computed (on the very first call it watches once more first, so
that there is a range): from the second training call on, the activations are fake-quantized with the range of
the previous batches, one step behind (e.g. after x1 = randn(8, 6), x2 = 5 * randn(8, 6), the second output
uses the range of x1 alone). Breaks "In training mode, forward(x) first lets act_observer watch x, then returns
F.linear(fake_quantize(x, s_x, z_x, 0, 255), ...)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        if self.training:\n"
    "            self.act_observer(x)\n",
    "        if self.training and self.act_observer.min_val is None:\n"
    "            self.act_observer(x)\n"), (
    "        return F.linear(x_fq, w_fq, self.bias)\n",
    "        out = F.linear(x_fq, w_fq, self.bias)\n"
    "        if self.training:\n"
    "            self.act_observer(x)\n"
    "        return out\n"))}
