"""Wrong: "QATLinear(in_features, out_features, bias=True) is a subclass of nn.Linear ... and an attribute
act_observer, a RangeObserver(torch.uint8, averaging_constant=0.01)": one per layer. This version declares
act_observer once on the class, so every QATLinear (both layers of the graded model, a second model) watches
its input through the same observer: a layer's range is moved by other layers' activations, and a new layer's
first input does not set its range."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    '''    """nn.Linear that sees its input (uint8, observed) and its weight (int8, symmetric) through fake quantization."""
''',
    '''    """nn.Linear that sees its input (uint8, observed) and its weight (int8, symmetric) through fake quantization."""

    act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)
'''), (
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
    "        pass  # act_observer is declared on the class\n"))}
