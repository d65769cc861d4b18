"""Round 14 (held out): the launcher stores the result into x's contiguous copy ('saves an allocation')
and returns it: for a contiguous x that copy is x itself, so the caller's x is overwritten and the result
is not a new tensor (values are right, and a transposed x still gets a real copy)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    out = torch.empty_like(x)\n",
    "    out = x\n"))}
