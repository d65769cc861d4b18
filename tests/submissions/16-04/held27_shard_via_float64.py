"""Known-wrong flatten_shard (held-out round 27): the tensors are concatenated as float64 "to lose no precision"
and the piece is cast back to the inputs' dtype at the end. The text says "tensors is a non-empty list of tensors
of one dtype" (any dtype) and "Return a new 1-D tensor ... with the inputs' dtype", holding the flattened
elements. Input on which it goes wrong: int64 tensors with values beyond 2**53 (e.g. 2**62 + 1, an index or a
seed), which float64 rounds, and complex tensors, whose imaginary part the cast drops."""
from course.grading.class_run.submissions import edited

CELLS = {"shard_impl": edited("16-04", "shard_impl", (
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n"
    "    k = -(-flat.numel() // world)\n",
    "    flat = torch.cat([t.reshape(-1).to(torch.float64) for t in tensors])\n"
    "    k = -(-flat.numel() // world)\n"),
    ("    return padded[rank * k:(rank + 1) * k].clone()\n",
     "    return padded[rank * k:(rank + 1) * k].to(tensors[0].dtype)\n"))}
EXPECT = {'shard': 'fail', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
