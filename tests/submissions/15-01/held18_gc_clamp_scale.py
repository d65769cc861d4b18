"""Round 18: the hook scales branch-free by (max_norm / norm).clamp(max=1.0). For max_norm = 0 and a gradient
that is all zeros this is 0 / 0 = nan, and the gradient becomes NaN; the text says to leave a gradient whose
norm is not above max_norm alone ("multiply by max_norm / norm when norm > max_norm; leave it alone
otherwise")."""
from course.grading.class_run.submissions import edited

EXPECT = {"grad_hooks": "fail"}
CELLS = {"grad_clip_impl": edited("15-01", "grad_clip_impl", (
    """        norm = p.grad.norm()
        if norm > max_norm:
            p.grad.mul_(max_norm / norm)""",
    """        norm = p.grad.norm()
        p.grad.mul_((max_norm / norm).clamp(max=1.0))  # no branch, no host sync"""))}
