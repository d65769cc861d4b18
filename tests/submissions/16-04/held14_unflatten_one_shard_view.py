"""Known-wrong unflatten_shards (held-out round 14): torch.cat already copies, so it drops the clone; with a single
shard (W = 1) it skips the cat as well, and the tensors it returns are views of the caller's shard ("a list of new
contiguous tensors" on one rank)."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([s.reshape(-1) for s in shards])\n",
    "    flat = shards[0] if len(shards) == 1 else torch.cat([s.reshape(-1) for s in shards])  # one rank: flat already\n"),
    ("out.append(flat[start:start + size].reshape(shape).clone())", "out.append(flat[start:start + size].reshape(shape))"))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
