"""Round 24 (held out): the launcher skips the kernel when p == 0 ("nothing is dropped") and returns
F.gelu(x, approximate="tanh"). gelu_dropout passes an all-true mask at p == 0, so its results are right, but
launch_gelu_dropout(x, keep, 0.0) with a keep holding False returns gelu(x) where the kernel stores 0, against
"For float32 and float64 tensors of any size ... its result equals F.gelu(x, approximate="tanh") * keep / (1 - p)"
and "runs it on contiguous copies of x and keep"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    x, keep = x.contiguous(), keep.contiguous()\n",
    "    if p == 0:\n"
    "        return F.gelu(x, approximate=\"tanh\")\n"
    "    x, keep = x.contiguous(), keep.contiguous()\n"))}
