"""Wrong (held-out round 28): `_unbroadcast` casts the gradient to the leaf's dtype BEFORE summing it back
to the leaf's shape, where torch sums in the result's (promoted) dtype and casts the sum. Violates "In float16
too it is torch's gradient: no rule may overflow where torch's gradient does not". Goes wrong on a float16 leaf
a = [1.] (shape (1,)) times a float32 b = [7e4, -7e4, 3.]: torch's a.grad of (a * b).sum() is [3.] in float16,
this engine casts [7e4, -7e4, 3.] to float16 first ([inf, -inf, 3.]) and returns [nan]."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        g = g.sum_to_size(like.shape) if g.shape != like.shape else g\n"
     "        return g.to(like.dtype)",
     "        g = g.to(like.dtype)  # the leaf's dtype first, then its shape\n"
     "        return g.sum_to_size(like.shape) if g.shape != like.shape else g"),
)}
