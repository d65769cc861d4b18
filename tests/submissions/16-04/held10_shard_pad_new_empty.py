"""Held-out round 10: flatten_shard allocates the padded buffer with new_empty and copies the n elements in,
so the padding holds whatever the allocator's memory held; the text says to "pad it at the end with zeros"."""
from course.grading.class_run.submissions import edited

EXPECT = {"shard": "fail", "zero1": "pass", "zero2": "pass", "zero3": "pass", "schedule": "pass", "pipeline": "pass"}
CELLS = {"shard_impl": edited(
    "16-04", "shard_impl",
    ("padded = flat.new_zeros(world * k)", "padded = flat.new_empty(world * k)"))}
