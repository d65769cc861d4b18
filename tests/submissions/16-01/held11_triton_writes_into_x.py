"""Held-out round 11: launch_gelu_dropout writes the result over its contiguous copy of x instead of a new
buffer (out = x after x = x.contiguous(), "no extra allocation"). For a non-contiguous x that copy is private
and all is well; but for an x that is already contiguous, x.contiguous() is x itself, so the launcher
overwrites the caller's x with the result and returns it. The text says it "runs it on contiguous copies of x
and keep ... and returns a new tensor of x's shape and dtype"; as the operator's CUDA kernel it would then
write into x, which gelu_dropout_op's schema (mutates_args=()) says it never does."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited(
    "16-01", "triton_impl",
    ("    out = torch.empty_like(x)\n", "    out = x  # write over the contiguous copy: no extra buffer\n"))}
