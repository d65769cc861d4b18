"""Round 24 (held out): attach_grad_clipping's hook returns early when the norm is small enough and scales
otherwise: `if norm <= max_norm: return`. For a gradient holding a NaN the norm is NaN, `NaN <= max_norm`
is False, so the whole gradient is multiplied by max_norm / NaN and every finite entry turns NaN, where the
text says "multiply by max_norm / norm when norm > max_norm; leave it alone otherwise" (NaN > max_norm is
False: the gradient stays as it was, its finite entries finite)."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    """        if norm > max_norm:
            p.grad.mul_(max_norm / norm)""",
    """        if norm <= max_norm:
            return
        p.grad.mul_(max_norm / norm)"""))}
