"""Cuts the flat buffer with torch.tensor_split (15-08's convention) instead of padding it to W equal pieces:
the pieces differ in length when W does not divide n."""
from course.grading.class_run.submissions import edited

EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': edited("16-04", 'shard_impl', ('    k = -(-flat.numel() // world)\n    padded = flat.new_zeros(world * k)\n    padded[: flat.numel()] = flat\n    return padded[rank * k:(rank + 1) * k].clone()', '    return torch.tensor_split(flat, world)[rank].clone()')),
}
