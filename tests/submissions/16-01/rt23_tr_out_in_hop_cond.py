"""Wrong (red team 23): launch_gelu_dropout allocates its output with torch.empty(x.shape, dtype=x.dtype) on the
default device (on a GPU the kernel gets a CPU pointer for out), inside a branch of torch.ops.higher_order.cond called
directly with a tensor predicate: the probe's TorchFunctionMode is shown `cond` only and the branch runs inside its
handling, so the factory called without device= was not recorded."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
EXPECT_GPU = {"triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    out = torch.empty_like(x)\n",
    "    box = []\n"
    "    def _make(z):\n"
    "        box.append(torch.empty(x.shape, dtype=x.dtype))\n"
    "        return z.clone()\n"
    "    torch.ops.higher_order.cond(torch.tensor(True), _make, _make, (torch.zeros(1),))\n"
    "    out = box[0]\n"))}
