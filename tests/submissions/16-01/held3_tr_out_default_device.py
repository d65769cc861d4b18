"""Wrong (held-out round 3): launch_gelu_dropout allocates its output with torch.empty(x.shape, dtype=x.dtype),
on the default device: on a GPU the kernel gets a CPU pointer for out. In Triton's interpreter on the CPU
everything is a CPU tensor; test_launch_on_x_device records the factories called without device= instead."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
EXPECT_GPU = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    out = torch.empty_like(x)\n", "    out = torch.empty(x.shape, dtype=x.dtype)\n"))}
