"""Known-wrong ScratchAdamW (gap round): raises ValueError for eps = 0 and weight_decay = 0, which
torch.optim.AdamW accepts ("Raise ValueError for a negative lr, eps or weight_decay")."""
from course.grading.class_run.submissions import edited

CELLS = {"adamw_impl": edited("00-03", "adamw_impl",
    ("        if lr < 0 or eps < 0 or weight_decay < 0:", "        if lr < 0 or eps <= 0 or weight_decay <= 0:"))}
EXPECT = {"adamw": "fail"}
