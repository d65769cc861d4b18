"""Skips the concatenation for a single tensor and returns a slice of its reshape: a view of the input when
no padding is needed."""
from course.grading.class_run.submissions import edited

EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': edited("16-04", 'shard_impl', ('    flat = torch.cat([t.reshape(-1) for t in tensors])\n    k = -(-flat.numel() // world)', '    flat = torch.cat([t.reshape(-1) for t in tensors]) if len(tensors) > 1 else tensors[0].reshape(-1)\n    k = -(-flat.numel() // world)\n    if k * world == flat.numel():\n        return flat[rank * k:(rank + 1) * k]')),
}
