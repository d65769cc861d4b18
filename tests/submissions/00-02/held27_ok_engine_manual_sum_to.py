"""Held-out round 27, a correct answer written unusually: `_unbroadcast` is written by hand instead of with
`sum_to_size`: it collects the leading dimensions and the size-1 dimensions of the leaf that were broadcast,
sums them in ONE `sum(dims, keepdim=True)` call (the order torch's own `sum_to` uses, so float16 rounding is
the same) and reshapes to the leaf's shape. Guarded against `sum(dim=())`, which sums everything."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        g = g.sum_to_size(like.shape) if g.shape != like.shape else g\n",
     """        shape = tuple(like.shape)
        lead = g.dim() - len(shape)
        dims = list(range(lead)) + [lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1]
        if dims:
            g = g.sum(dims, keepdim=True).reshape(shape)
"""))}
