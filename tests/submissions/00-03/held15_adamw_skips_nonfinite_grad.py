"""Skips a parameter whose gradient holds inf or nan, as GradScaler skips a step. The text says only None
skips a parameter and the steps equal torch.optim.AdamW's, which applies such a gradient (the parameter
and moments become non-finite, the step is counted)."""
from course.grading.class_run.submissions import edited

EXPECT = {"adamw": "fail"}
CELLS = {"adamw_impl": edited("00-03", "adamw_impl", (
    """                if p.grad is None:
                    continue
                g = p.grad""",
    """                if p.grad is None or not torch.isfinite(p.grad).all():
                    continue
                g = p.grad"""))}
