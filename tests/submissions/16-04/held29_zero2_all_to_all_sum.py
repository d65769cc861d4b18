"""Known-wrong zero2_step (held-out round 29): the gradient is not reduce-scattered: each rank sends piece r of its
padded flat gradient to rank r with `dist.all_to_all_single` and rank r sums the W pieces it receives itself. That
sends exactly what a reduce-scatter sends ((W-1)·k elements), and the result is right, but the text says "Flatten the
gradients into one flat buffer padded as in Exercise 1 and **reduce-scatter** it (`dist.reduce_scatter` or
`dist.reduce_scatter_single`), so that each rank receives the summed gradient of its own shard only": here each rank
receives W unsummed pieces and no reduce-scatter is called. Input on which it goes wrong: any call (no reduce-scatter
among the rank's collectives)."""
from course.grading.class_run.submissions import edited

CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "    g = flat_grad.new_empty(flat_grad.numel() // world)\n"
    "    dist.reduce_scatter_single(g, flat_grad)\n",
    "    pieces = torch.empty_like(flat_grad)\n"
    "    dist.all_to_all_single(pieces, flat_grad)\n"
    "    g = pieces.reshape(world, -1).sum(0)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'fail', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
