"""Round 17 (held out): the kernel loads x and computes in float32 (.to(tl.float32), the usual pattern for
half-precision inputs) and stores into the float64 output: float64 results carry float32 rounding, against
'for float32 and float64 tensors ... its result equals F.gelu(x, approximate="tanh") * keep / (1 - p)'."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    x = tl.load(x_ptr + offs, mask=inside, other=0.0)\n",
    "    x = tl.load(x_ptr + offs, mask=inside, other=0.0).to(tl.float32)\n"))}
