"""Known-wrong flatten_shard (held-out round 24): like FSDP with tied weights, it flattens a tensor that appears
several times in the list only once (it keeps the first occurrence of each tensor object). The text says "Flatten
each tensor in row-major order (as t.reshape(-1) reads it), concatenate them in list order into a 1-D tensor of n
elements". Input on which it goes wrong: a list holding one tensor object twice, e.g. [w, b, w]: n counts w twice,
this answer drops the second w, so the pieces and their length are wrong."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n    k = ",
    "    unique = list({id(t): t for t in tensors}.values())  # a tied tensor is stored once\n"
    "    flat = torch.cat([t.reshape(-1) for t in unique])\n    k = "))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
