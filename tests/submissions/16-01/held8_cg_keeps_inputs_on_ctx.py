"""Wrong (held-out round 8): setup_context keeps the whole inputs tuple on ctx (ctx.inputs = inputs) to read
limit from it in the backward, and saves y with save_for_backward: ctx then holds a reference to x, which
stays alive until the backward runs. Breaks "`setup_context` saves only the output `y` with
`ctx.save_for_backward` (not `x`) and keeps `limit` on `ctx`" (Exercise 2, third bullet)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "fail", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", (
    "    ctx.limit = limit\n", "    ctx.inputs = inputs\n"), (
    "    return grad * (1 - (y / ctx.limit) ** 2), None\n",
    "    return grad * (1 - (y / ctx.inputs[1]) ** 2), None\n"))}
