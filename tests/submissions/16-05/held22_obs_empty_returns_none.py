"""Round 22: RangeObserver.forward skips an empty tensor with a bare `return`, so it returns None instead of x
for a zero-size input (the ranges are left alone, as they should be). The text: "forward(x) returns x itself"
for a tensor "of any shape" (zero-size included: "An empty tensor changes nothing")."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        if x.numel() == 0:\n            return x\n",
    "        if x.numel() == 0:\n            return  # nothing to record\n"))}
