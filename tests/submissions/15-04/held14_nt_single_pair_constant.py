"""Held-out round 14: N = 1 is special-cased as "the loss is exactly 0" and returns a fresh
torch.zeros((), dtype=z1.dtype): the right value and dtype, but on the CPU whatever the inputs' device, and
cut off from autograd (loss.backward() raises). The text: "Handle any `N >= 1`, any embedding size and any
positive temperature, on CPU or GPU"."""
from course.grading.class_run.submissions import edited

EXPECT = {"nt_xent": "fail"}
CELLS = {"nt_xent_impl": edited(
    "15-04", "nt_xent_impl",
    ("    n = z1.shape[0]\n",
     "    n = z1.shape[0]\n"
     "    if n == 1:   # only the positive is left: the loss is exactly 0\n"
     "        return torch.zeros((), dtype=z1.dtype)\n"))}
