"""Held-out round 9: to avoid the "degrees of freedom" warning, std is reported as 0.0 for an output with a
single value, and mean as 0.0 for an empty one. The text: "mean" and "std" are output.mean() and
output.std() with PyTorch's default correction, which give NaN in those cases."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "fail"}
CELLS = {"trace_impl": edited(
    "15-03", "trace_impl",
    ('"mean": out.mean().item(),\n                            "std": out.std().item(),',
     '"mean": out.mean().item() if out.numel() else 0.0,\n'
     '                            "std": out.std().item() if out.numel() > 1 else 0.0,'))}
