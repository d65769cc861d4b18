"""Skips a group whose lr is 0. torch.optim.AdamW still counts the step and updates both moments at lr 0
(a warm-up starting at 0), so every later step differs."""
from course.grading.class_run.submissions import edited

EXPECT = {"adamw": "fail"}
CELLS = {"adamw_impl": edited("00-03", "adamw_impl", (
    """            lr, (b1, b2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
""",
    """            lr, (b1, b2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            if lr == 0:
                continue
"""))}
