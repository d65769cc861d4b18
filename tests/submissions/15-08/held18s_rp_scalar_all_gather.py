"""Wrong (second pass, not counted): "Each rank sends exactly one message, of `x.numel()` elements, and calls no
collective." A 0-d x is passed with `dist.all_gather` ("a scalar: everyone learns everyone's, take the left
one"); every other x goes with send/recv."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    outgoing = x.contiguous()\n",
     "    if x.dim() == 0:  # a scalar: gather every rank's and take the left neighbour's\n"
     "        every = [torch.empty_like(x) for _ in range(world)]\n"
     "        dist.all_gather(every, x)\n"
     "        return every[(rank - 1) % world]\n"
     "    outgoing = x.contiguous()\n"))}
