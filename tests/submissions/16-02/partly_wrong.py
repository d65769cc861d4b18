"""Two realistic mistakes in different tasks; the other tasks keep the reference solution.

- SiLU.jvp multiplies the tangent by sigmoid(x) alone (forgets the x * s * (1 - s) term);
- jacobian picks the modes the wrong way round (reverse mode for tall Jacobians).
"""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail", "jacobian": "fail", "dual_jvp": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "silu_impl": edited("16-02", "silu_impl", ("return t * (s + x * s * (1 - s))", "return t * s")),
    "jacobian_impl": edited("16-02", "jacobian_impl", ("if x.numel() < n_out:", "if x.numel() > n_out:")),
}
