"""Puts the zeros of padding at the front of the flat buffer instead of the end."""
from course.grading.class_run.submissions import edited

EXPECT = {'shard': 'fail'}
CELLS = {
    'shard_impl': edited("16-04", 'shard_impl', ('padded[: flat.numel()] = flat', 'padded[padded.numel() - flat.numel():] = flat')),
}
