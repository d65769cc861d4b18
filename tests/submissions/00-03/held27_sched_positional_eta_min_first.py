"""Held-out round 27: the signature is warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, eta_min=0.0,
start_factor=0.1): the two options swapped. With keywords or defaults it is right; by position, as the text's
signature allows, the fifth argument becomes eta_min and the sixth start_factor. Breaks "warmup_cosine_lr(step,
base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0) returns the learning rate ... by the formula
above". Goes wrong on: warmup_cosine_lr(0, 0.1, 10, 100, 0.5, 0.001) should be 0.05 (start_factor 0.5) and
gives 0.0001."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "fail", "collate": "pass"}
CELLS = {"schedule_impl": edited(
    "00-03", "schedule_impl",
    ("def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, start_factor=0.1, eta_min=0.0):\n",
     "def warmup_cosine_lr(step, base_lr, warmup_steps, total_steps, eta_min=0.0, start_factor=0.1):\n"))}
