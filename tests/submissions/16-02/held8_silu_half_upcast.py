"""Held-out round 8, wrong: SiLU computes the sigmoid in at least float32 "for stability" and multiplies by
x without casting back, so a float16 or bfloat16 x gives a float32 result. Breaks "SiLU.apply(x) takes a
floating-point tensor ... and returns x * torch.sigmoid(x) with x's shape and dtype"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", (
    "        return x * torch.sigmoid(x)\n",
    "        return x * torch.sigmoid(x.to(torch.promote_types(x.dtype, torch.float32)))\n"))}
