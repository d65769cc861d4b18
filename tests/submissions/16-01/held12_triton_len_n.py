"""Wrong: "program i handles the elements i * BLOCK to ... of the flat, contiguous x" and "for float32 and
float64 tensors of any size". This launcher takes n = len(x), the length of the first dimension, not
x.numel(): for a 1-D x it is right, for a (3, 400) x only the first 3 elements are computed (the rest of
the output is whatever torch.empty_like left there), and for a 0-dim x len() raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", ("    n = x.numel()\n", "    n = len(x)\n"))}
