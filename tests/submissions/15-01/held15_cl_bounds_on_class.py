"""Round 15: Clamp keeps lo and hi on the class (Clamp.lo = lo) and builds the mask in backward from the saved x:
two Clamp nodes with different bounds built before one backward both use the bounds of the last one
("matching torch.clamp(x, lo, hi) ... in gradient", for each call)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    """        ctx.save_for_backward((x > lo) & (x < hi))""",
    """        Clamp.lo, Clamp.hi = lo, hi
        ctx.save_for_backward(x)"""), (
    """        (mask,) = ctx.saved_tensors""",
    """        (x,) = ctx.saved_tensors
        mask = (x > Clamp.lo) & (x < Clamp.hi)"""))}
