"""Wrong (held-out round 30): the hook rescales with two in-place steps, p.grad.mul_(max_norm).div_(norm),
instead of multiplying by max_norm / norm. The text says "multiply by max_norm / norm when norm > max_norm".
p.grad * max_norm can overflow before the division: a float16 gradient [60000., 0.] with max_norm = 2.0 becomes
[inf, 0.] / 60000 = [inf, 0.] instead of [2., 0.] (float16's norm is computed without overflow, the product
is not). Moderate gradients, and float32/float64 ones, are right to rounding."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    "            p.grad.mul_(max_norm / norm)\n",
    "            p.grad.mul_(max_norm).div_(norm)\n"))}
