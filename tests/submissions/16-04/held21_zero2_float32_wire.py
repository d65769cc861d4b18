"""Known-wrong zero2_step (held-out round 21): to halve the bytes, the flat gradient is reduce-scattered in
float32 and cast back to the parameters' dtype, so float64 parameters are updated from a gradient rounded to
float32 ("the same result as zero1_step: ... every rank's params equal single-process torch.optim.AdamW on the
mean gradient")."""
from course.grading.class_run.submissions import edited

CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "    g = flat_grad.new_empty(flat_grad.numel() // world)\n"
    "    dist.reduce_scatter_single(g, flat_grad)\n",
    "    wire = flat_grad.float()\n"
    "    g32 = wire.new_empty(flat_grad.numel() // world)\n"
    "    dist.reduce_scatter_single(g32, wire)\n"
    "    g = g32.to(flat_grad.dtype)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'fail', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
