"""Wrong: "Each rank sends exactly one message, of `x.numel()` elements, and calls no collective."
This version returns an empty copy at once when x has no elements ("there is nothing to send"), so on an
empty x no rank sends (or receives) any message; the result itself is right."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    rank, world = dist.get_rank(), dist.get_world_size()\n",
     "    if x.numel() == 0:  # nothing to send\n"
     "        return torch.empty_like(x, memory_format=torch.contiguous_format)\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n"))}
