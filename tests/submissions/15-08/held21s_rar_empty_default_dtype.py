"""Second pass of round 21 (not counted). Wrong: "Return a new tensor of `x`'s shape and dtype" (any shape, an
empty one too, "a float or integer dtype"). This version returns early for an empty x with
`torch.empty(x.shape, device=x.device)`: the shape and device are x's, the dtype is the default float32,
so an empty int64 or float64 x comes back as float32."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    rank, world = dist.get_rank(), dist.get_world_size()\n",
     "    if x.numel() == 0:  # nothing to add up\n"
     "        return torch.empty(x.shape, device=x.device)\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n"))}
