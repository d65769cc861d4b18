"""Skips a parameter whose gradient is all zeros. "Only None skips a parameter": torch.optim.AdamW still
decays it, updates its moments and counts the step."""
from course.grading.class_run.submissions import edited

EXPECT = {"adamw": "fail"}
CELLS = {"adamw_impl": edited("00-03", "adamw_impl", (
    """                if p.grad is None:
                    continue
                g = p.grad""",
    """                if p.grad is None or not p.grad.any():
                    continue
                g = p.grad"""))}
