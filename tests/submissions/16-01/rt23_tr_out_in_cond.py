"""Wrong (red team 23): launch_gelu_dropout allocates its output with torch.empty(x.shape, dtype=x.dtype) on the
default device (on a GPU the kernel gets a CPU pointer for out), made inside a torch.cond branch with a tensor
predicate: cond's compiled path shows the probe's TorchFunctionMode `cond` only, never the branch's factory."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
EXPECT_GPU = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    out = torch.empty_like(x)\n",
    "    out = torch.cond(torch.tensor(True), lambda z: torch.empty(z.shape, dtype=z.dtype),\n"
    "                     lambda z: torch.empty(z.shape, dtype=z.dtype), (x,))\n"))}
