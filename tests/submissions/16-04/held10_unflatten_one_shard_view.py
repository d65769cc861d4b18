"""Held-out round 10: unflatten_shards skips torch.cat when there is one shard (W = 1) and reshapes slices of
that shard, so the tensors it returns share memory with the caller's shard; the text says "Return a list of
new contiguous tensors"."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail", "zero1": "pass", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
CELLS = {"shard_impl": edited(
    "16-04", "shard_impl",
    ("    flat = torch.cat([s.reshape(-1) for s in shards])\n",
     "    flat = shards[0] if len(shards) == 1 else torch.cat([s.reshape(-1) for s in shards])\n"),
    ("out.append(flat[start:start + size].reshape(shape).clone())",
     "piece = flat[start:start + size].reshape(shape)\n"
     "        out.append(piece if len(shards) == 1 else piece.clone())"))}
