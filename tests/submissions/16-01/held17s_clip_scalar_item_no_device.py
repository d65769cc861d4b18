"""Round 17 contract walk (not counted): a 0-dim shortcut through Python numbers, torch.tensor(limit *
math.tanh(x.item() / limit), dtype=x.dtype) with no device=: right values on the CPU, but on a GPU the 0-dim result
lands on the CPU, against 'a new tensor with x's shape, dtype and device'. The walk found that row read only through
the dispatcher with meta as the default device, a mode the dispatcher hides from the kernel (round 14's stand-in
never reached the kernel's factories); test_kernel_on_x_device calls the kernel itself off the default device
(x.item() needs values: the CPU under a meta default)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "fail", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"clip_impl": edited("16-01", "clip_impl", (
    "    return limit * torch.tanh(x / limit)\n",
    "    if x.dim() == 0:\n"
    "        return torch.tensor(limit * math.tanh(x.item() / limit), dtype=x.dtype)\n"
    "    return limit * torch.tanh(x / limit)\n"))}
