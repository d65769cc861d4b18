"""Round 19: RangeObserver flattens a per-tensor input with x.view(-1) before taking its extremes. A transposed
or otherwise non-contiguous x makes .view raise ("view size is not compatible with input tensor's size and
stride"). The text: "forward(x) returns x itself and records the smallest and largest value of the float32
tensor x (of any shape and memory layout)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            lo, hi = torch.aminmax(y)\n",
    "            lo, hi = torch.aminmax(y.view(-1))\n"))}
