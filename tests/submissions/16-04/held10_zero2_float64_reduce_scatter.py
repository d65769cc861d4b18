"""Held-out round 10: zero2_step reduce-scatters the flat gradient in float64 "for an exact sum" whatever the
parameters' dtype, so float32 parameters send twice the bytes; the text says one call may send at most
2(W-1)·⌈n/W⌉ elements' worth, as a ring counts bytes."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "fail", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
CELLS = {"zero2_impl": edited(
    "16-04", "zero2_impl",
    ("    g = flat_grad.new_empty(flat_grad.numel() // world)\n"
     "    dist.reduce_scatter_single(g, flat_grad)\n"
     "    g /= world\n",
     "    wide = flat_grad.to(torch.float64)\n"
     "    g64 = wide.new_empty(wide.numel() // world)\n"
     "    dist.reduce_scatter_single(g64, wide)\n"
     "    g = (g64 / world).to(flat_grad.dtype)\n"))}
