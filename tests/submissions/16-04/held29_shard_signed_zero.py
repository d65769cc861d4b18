"""Known-wrong flatten_shard (held-out round 29): the flat values are ADDED into the zero buffer
(`padded[:n] += flat`) instead of copied. 0.0 + (-0.0) is +0.0, so every negative zero of the inputs comes back as a
positive zero. The text says "Flatten each tensor ..., concatenate them ..., pad it at the end with zeros ... and
return the piece of rank `rank`": the piece must hold the inputs' elements, and -0.0 is not +0.0 (1 / x, copysign,
signbit tell them apart). Input on which it goes wrong: flatten_shard([torch.tensor([-0.0, 1.0])], 1, 0) returns
[+0.0, 1.0] (torch.equal cannot see it; torch.signbit can)."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    padded[: flat.numel()] = flat\n",
    "    padded[: flat.numel()] += flat\n"))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
