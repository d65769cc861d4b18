"""Correct, written unusually (held-out round 30): Clamp builds its gradient mask from the clamped *output*
(y > lo) & (y < hi): inside the bounds y == x, at or beyond a bound y equals that bound (never strictly inside),
and a NaN stays NaN (both comparisons False), so the mask is exactly lo < x < hi. attach_grad_clipping uses
functools.partial and torch.linalg.vector_norm and rescales with an out= multiply into p.grad (in place)."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "pass", "softplus": "pass", "logcosh": "pass", "clamp": "pass",
          "forward_hooks": "pass", "grad_hooks": "pass", "inplace": "pass"}
CELLS = {
    "clamp_impl": edited("15-01", "clamp_impl", (
        "        ctx.save_for_backward((x > lo) & (x < hi))\n"
        "        return x.clamp(lo, hi)\n",
        "        y = torch.clamp(x, min=lo, max=hi)\n"
        "        ctx.save_for_backward(torch.logical_and(y > lo, y < hi))\n"
        "        return y\n")),
    "grad_clip_impl": edited("15-01", "grad_clip_impl", (
        "    def clip(p):\n"
        "        norm = p.grad.norm()\n"
        "        if norm > max_norm:\n"
        "            p.grad.mul_(max_norm / norm)\n"
        "\n"
        "    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]\n",
        "    import functools\n"
        "\n"
        "    def clip(limit, p):\n"
        "        norm = torch.linalg.vector_norm(p.grad)\n"
        "        if bool(norm > limit):\n"
        "            torch.mul(p.grad, limit / norm, out=p.grad)\n"
        "\n"
        "    hook = functools.partial(clip, max_norm)\n"
        "    handles = []\n"
        "    for p in filter(lambda q: q.requires_grad, model.parameters()):\n"
        "        handles.append(p.register_post_accumulate_grad_hook(hook))\n"
        "    return handles\n")),
}
