"""Round 19: QATLinear declares act_observer once on the class, `act_observer = RangeObserver(torch.uint8,
averaging_constant=0.01)`, instead of building one per layer in __init__. Every QATLinear shares it: in the
grader's two-layer model the second layer's range is moved by the first layer's inputs and the reverse, and a
new layer starts from the range older layers left. The text: "QATLinear(in_features, out_features, bias=True)
is ... an attribute act_observer, a RangeObserver(torch.uint8, averaging_constant=0.01)", and "forward(x) first
lets act_observer watch x" (this layer's x: "the first tensor sets them")."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
    "        pass  # act_observer is declared on the class\n"), (
    "    def __init__(self, in_features, out_features, bias=True):\n",
    "    act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n\n"
    "    def __init__(self, in_features, out_features, bias=True):\n"))}
