"""Round 23: QATLinear takes its activation observer as a default argument, `act_observer=RangeObserver(
torch.uint8, averaging_constant=0.01)` in the signature of __init__. Python evaluates a default once, so every
QATLinear built without the argument shares one observer: in a two-layer model the first layer's inputs
(pixels) and the second's (hidden ReLU outputs) move the same range, and a new layer starts from whatever earlier
layers left. Contradicts "an attribute act_observer, a RangeObserver(torch.uint8, averaging_constant=0.01)" (its
own, "the first tensor sets them") and "forward(x) first lets act_observer watch x"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "    def __init__(self, in_features, out_features, bias=True):\n",
    "    def __init__(self, in_features, out_features, bias=True,\n"
    "                 act_observer=RangeObserver(torch.uint8, averaging_constant=0.01)):\n"), (
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
    "        self.act_observer = act_observer\n"))}
