"""Known-wrong pipeline_grads (held-out round 29): it switches on `torch.use_deterministic_algorithms(True)` ("so that
the gradients are reproducible") and never switches it back. The text says "return None, leaving the grad mode and
the process's other global settings as you found them". Input on which it goes wrong: any call:
torch.are_deterministic_algorithms_enabled() is True afterwards on both ranks when it was False before."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "    rank = dist.get_rank()\n",
    "    torch.use_deterministic_algorithms(True)\n"
    "    rank = dist.get_rank()\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
