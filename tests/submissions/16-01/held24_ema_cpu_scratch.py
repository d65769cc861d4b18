"""Round 24 (held out): the kernel computes the new average into a scratch buffer and copies it back once (so
that a non-contiguous avg is written through its own strides), but makes the buffer without device=
(torch.empty(avg.shape, dtype=avg.dtype)). Right on the CPU; for an avg on a GPU, torch.mul(avg, decay,
out=cpu_buffer) raises, against "ema_(avg, x, decay) updates avg in place to decay * avg + (1 - decay) * x, for
float32 and float64 tensors" (the notebook runs on CPU or GPU)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "fail", "fused": "pass", "triton": "pass"}
CELLS = {"ema_impl": edited("16-01", "ema_impl", (
    "        avg.mul_(decay).add_(x, alpha=1 - decay)\n",
    "        new = torch.empty(avg.shape, dtype=avg.dtype)\n"
    "        torch.mul(avg, decay, out=new)\n"
    "        new.add_(x, alpha=1 - decay)\n"
    "        avg.copy_(new)\n"))}
