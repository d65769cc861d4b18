"""Wrong: "forward(x) returns x itself and records the smallest and largest value of the float32 tensor x ...
over the whole tensor (0-dim) when ch_axis is None", equal to PyTorch's observers, which take any tensor.
This version flattens with x.view(-1), which raises for a transposed, sliced or channels-last x (an
activation QATLinear is handed need not be contiguous). Ambiguity when written: exercise 2 did not repeat
exercise 1's "any shape and memory layout" (read from "the float32 tensor x" and "equals PyTorch's observer");
round 16 added "(of any shape and memory layout)" to the sentence."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "fail", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "            lo, hi = torch.aminmax(y)\n",
    "            flat = y.view(-1)\n            lo, hi = flat.min(), flat.max()\n"))}
