"""Known-wrong pipeline_grads (held-out round 29): rank 1 does not follow gpipe_schedule(2, M): it runs the backward of
each micro-batch right after its forward and sends that micro-batch's activation gradient at once (F0 B0 F1 B1 ...,
a 1F1B order on the last stage), before receiving the next micro-batch's activations. The gradients are the same and
rank 0 is unchanged (its sends are buffered), but the text says "Follow gpipe_schedule(2, M)" and, for rank 1, "in
the backward sends the gradient ... in the order 0, 1, ..., M-1" after the forwards: GPipe's last stage runs all its
M forwards before any backward. Input on which it goes wrong: any M >= 2: rank 1 sends the gradient of micro-batch 0
before it receives the activations of micro-batch 1."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "    for _, s, kind, m in gpipe_schedule(2, M):\n",
    "    order = gpipe_schedule(2, M)\n"
    "    if rank == 1:\n"
    "        order = [(0, 1, k, m) for m in range(M) for k in (\"F\", \"B\")]\n"
    "    for _, s, kind, m in order:\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
