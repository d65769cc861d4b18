"""ZeRO-2 that all-reduces the whole gradient and then keeps its own shard: the values are right, but the full
gradient still travels (and exists) on every rank."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": edited("16-04", "zero2_impl", ("""    g = flat_grad.new_empty(flat_grad.numel() // world)
    dist.reduce_scatter_single(g, flat_grad)
    g /= world""", """    k = flat_grad.numel() // world
    dist.all_reduce(flat_grad)
    g = flat_grad[rank * k:(rank + 1) * k] / world"""))}
