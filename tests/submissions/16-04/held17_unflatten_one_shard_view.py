"""Known-wrong unflatten_shards (held-out round 17): torch.cat already copies, so the pieces are not cloned, and a
single shard (W = 1) is not concatenated at all: then every returned tensor is a view of that shard ("Return a list
of new contiguous tensors")."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([s.reshape(-1) for s in shards])\n",
    "    flat = shards[0].reshape(-1) if len(shards) == 1 else torch.cat([s.reshape(-1) for s in shards])\n"), (
    "        out.append(flat[start:start + size].reshape(shape).clone())\n",
    "        out.append(flat[start:start + size].reshape(shape))  # flat is already a copy\n"))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
