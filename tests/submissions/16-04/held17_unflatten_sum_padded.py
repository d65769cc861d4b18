"""Known-wrong unflatten_shards (held-out round 17): the all-reduce trick, each shard zero-padded to its place in
the full buffer and the W buffers summed. Every value comes back except the sign of a zero: 0.0 + (-0.0) is 0.0
("Return a list of new contiguous tensors, one per shape, holding the original values")."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([s.reshape(-1) for s in shards])\n",
    "    k, world = shards[0].numel(), len(shards)\n"
    "    flat = sum(torch.nn.functional.pad(s.reshape(-1), (r * k, (world - 1 - r) * k))\n"
    "               for r, s in enumerate(shards))\n"))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
