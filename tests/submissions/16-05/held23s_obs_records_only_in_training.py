"""Round 23, second pass (not counted): RangeObserver records only in training mode (`if not self.training:
return x`), putting QATLinear's "eval mode leaves the observer as it is" into the observer itself. QATLinear is
right (model.eval() reaches act_observer), but an observer put in eval mode, as PyTorch's observers are inside a
model in eval mode, records nothing, while PyTorch's MinMaxObserver and MovingAverageMinMaxObserver record in
either mode. Contradicts "forward(x) returns x itself and records the smallest and largest value ..." (no mode
named) and "So the result equals that of PyTorch's observer of the same kind"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        if x.numel() == 0:\n",
    "        if x.numel() == 0 or not self.training:  # eval mode: the range is frozen\n"))}
