"""Held-out round 11: QATLinear always builds nn.Linear with a bias and, for bias=False, zeroes it: the output
is the same, but the layer has a bias parameter that the optimizer trains; the text says QATLinear has the same
parameters as nn.Linear, weight and bias unless bias=False."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited(
    "16-05", "qat_impl",
    ("        super().__init__(in_features, out_features, bias=bias)\n",
     "        super().__init__(in_features, out_features)\n"
     "        if not bias:\n"
     "            with torch.no_grad():\n"
     "                self.bias.zero_()\n"))}
