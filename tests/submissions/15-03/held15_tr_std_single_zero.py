"""Held-out round 15: trace_activations reports std 0.0 for an output with a single element ("no spread"), where
output.std() with PyTorch's default correction is nan (one value, one degree of freedom used by the mean).
Exercise 5's text: "std" is "output.std() with PyTorch's default correction"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
CELLS = {"trace_impl": edited("15-03", "trace_impl", (
    '"std": out.std().item()', '"std": out.std().item() if out.numel() > 1 else 0.0'))}
