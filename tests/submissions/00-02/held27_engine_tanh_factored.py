"""Held-out round 27: `tanh`'s rule is written `g * (1 - t) * (1 + t)` (the factored form, evaluated left to
right) instead of `g * (1 - t * t)`. Equal in float32/float64, but in float16 with an upstream gradient above
32752 and `t` near -1, `g * (1 - t)` is about `2 g` and overflows to inf: the gradient comes out inf or NaN
(inf * 0) where torch's is finite (0 at t = -1, 39 at t = -0.9995 for g = 40000). The text: "In float16 too
it is torch's gradient: no rule may overflow where torch's gradient does not"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("lambda g: (g * (1 - t * t),)", "lambda g: (g * (1 - t) * (1 + t),)"))}
