"""Makes the padded buffer with torch.zeros(..., dtype=...) without device=: right on the CPU, but on
cuda:rank (or the meta stand-in) the buffer lands on the CPU."""
from course.grading.class_run.submissions import edited

EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': edited("16-04", 'shard_impl', ('padded = flat.new_zeros(world * k)', 'padded = torch.zeros(world * k, dtype=flat.dtype)')),
}
