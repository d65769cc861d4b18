"""Known-wrong flatten_shard (held-out round 17): a single tensor is not concatenated (torch.cat would copy it),
and when no padding is needed the piece is sliced straight out of it, so for one contiguous tensor whose size the
world divides the piece is a view of the input ("Return a new 1-D tensor (never a view of an input)")."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n"
    "    k = -(-flat.numel() // world)\n"
    "    padded = flat.new_zeros(world * k)\n"
    "    padded[: flat.numel()] = flat\n"
    "    return padded[rank * k:(rank + 1) * k].clone()\n",
    "    flat = torch.cat([t.reshape(-1) for t in tensors]) if len(tensors) > 1 else tensors[0].reshape(-1)\n"
    "    k = -(-flat.numel() // world)\n"
    "    if world * k > flat.numel():  # pad only when needed (this copies anyway)\n"
    "        flat = torch.cat([flat, flat.new_zeros(world * k - flat.numel())])\n"
    "    return flat[rank * k:(rank + 1) * k]\n"))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
