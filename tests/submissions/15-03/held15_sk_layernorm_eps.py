"""Held-out round 15: each block's LayerNorm is built with eps=1e-6 (copied from transformer code) instead of
nn.LayerNorm(d_in)'s default 1e-5. On rows whose variance is small (near-constant features) the normalised values
differ by far more than rounding. Exercise 1's text: "norm: nn.LayerNorm(d_in) if norm=True"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "fail", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"skipmlp_impl": edited("15-03", "skipmlp_impl", ("nn.LayerNorm(d_in) if", "nn.LayerNorm(d_in, eps=1e-6) if"))}
