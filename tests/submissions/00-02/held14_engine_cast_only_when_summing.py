"""Held-out round 14: the un-broadcast casts the gradient to the leaf's dtype only when it also has to sum
(shapes differ). For two leaves of the same shape and different dtypes, the lower-precision leaf's `.grad`
comes back in the promoted dtype. The text: "with the leaf's shape and dtype"."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        g = g.sum_to_size(like.shape) if g.shape != like.shape else g\n"
     "        return g.to(like.dtype)",
     "        if g.shape != like.shape:\n            return g.sum_to_size(like.shape).to(like.dtype)\n"
     "        return g"))}
