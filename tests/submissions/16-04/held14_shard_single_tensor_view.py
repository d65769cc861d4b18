"""Known-wrong flatten_shard (held-out round 14): with one contiguous tensor whose size the world divides there is
nothing to pad, so it cuts the tensor itself and returns a slice of it, a view of the input ("never a view of an
input" on the degenerate one-tensor, no-padding list)."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n",
    "    if len(tensors) == 1 and tensors[0].numel() % world == 0:  # nothing to pad: cut the tensor itself\n"
    "        k = tensors[0].numel() // world\n"
    "        return tensors[0].reshape(-1)[rank * k:(rank + 1) * k]\n"
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n"))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
