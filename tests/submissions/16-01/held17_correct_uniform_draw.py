"""Round 17 (held out), correct: the mask drawn as x.new_empty(x.shape).uniform_(0, 1, generator=generator)
(torch.rand's own draw, in x's dtype and on x's device, contiguous) compared with torch.ge, and the all-true
mask of p == 0 built by x.new_ones: the same numbers as the reference, and nothing drawn at p == 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "    if p == 0:\n"
    "        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n"
    "    else:\n"
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n"
    "        keep = u >= p\n",
    "    if not p:\n"
    "        keep = x.new_ones(x.shape, dtype=torch.bool)\n"
    "    else:\n"
    "        keep = torch.ge(x.new_empty(x.shape).uniform_(0.0, 1.0, generator=generator), p)\n"))}
