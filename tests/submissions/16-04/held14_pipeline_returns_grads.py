"""Known-wrong pipeline_grads (held-out round 14): the gradients are right, but it returns the list of its stage's
parameter gradients, handy for the caller, instead of None ("... and calls no collective; return None")."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "            dist.send(h.grad, 0)\n",
    "            dist.send(h.grad, 0)\n"
    "    return [p.grad for p in stage.parameters()]  # handy for the caller\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
