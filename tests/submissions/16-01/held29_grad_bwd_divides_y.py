"""Round 29 (held out): in a first-order backward (grad mode off) the backward reuses the saved output's memory,
y.div_(limit), to avoid a temporary; only when grad mode is on (create_graph, double backward) does it use the
out-of-place formula. The gradient is right, but the backward writes into y, which is the tensor smooth_clip returned
to the caller. Breaks "smooth_clip(x, limit) returns limit * tanh(x / limit)" and "setup_context saves only the output
y itself": after y = smooth_clip(x, 2.0); y.sum().backward(), y holds tanh(x / 2) instead of 2 tanh(x / 2), and a
second backward through the same graph (retain_graph=True) raises a version-counter error."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "fail", "ema": "pass", "fused": "pass", "triton": "pass"}
CELLS = {"grad_impl": edited("16-01", "grad_impl", (
    "    return grad * (1 - (y / ctx.limit) ** 2), None\n",
    "    if torch.is_grad_enabled():  # double backward: keep the formula differentiable\n"
    "        return grad * (1 - (y / ctx.limit) ** 2), None\n"
    "    r = y.div_(ctx.limit)  # first-order pass: no graph needed, reuse the saved buffer\n"
    "    return grad * (1 - r * r), None\n"))}
