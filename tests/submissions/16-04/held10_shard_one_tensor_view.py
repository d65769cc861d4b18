"""Held-out round 10: flatten_shard skips torch.cat for a one-tensor list and, when world divides n (no
padding), returns a slice of that tensor's reshape(-1), a view of the caller's tensor; the text says "Return a
new 1-D tensor (never a view of an input)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail", "zero1": "pass", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
CELLS = {"shard_impl": edited(
    "16-04", "shard_impl",
    ("    flat = torch.cat([t.reshape(-1) for t in tensors])\n    k = -(-flat.numel() // world)\n",
     "    flat = tensors[0].reshape(-1) if len(tensors) == 1 else torch.cat([t.reshape(-1) for t in tensors])\n"
     "    k = -(-flat.numel() // world)\n"
     "    if world * k == flat.numel():  # nothing to pad\n"
     "        return flat[rank * k:(rank + 1) * k]\n"))}
