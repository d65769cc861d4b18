"""Held-out round 11: gelu_dropout(x, p) without a generator makes its own, torch.Generator(device=x.device),
"so that the mask never depends on other code". That generator always starts from the same default seed, so
every call without a generator drops the same elements, whatever torch.manual_seed said. The text says
gelu_dropout "draws u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device) once": with
generator=None that is a draw from PyTorch's default generator, which torch.manual_seed sets and each draw
advances."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited(
    "16-01", "fused_impl",
    ("    if p == 0:\n",
     "    if generator is None:  # a private generator: the mask never depends on other code\n"
     "        generator = torch.Generator(device=x.device)\n"
     "    if p == 0:\n"))}
