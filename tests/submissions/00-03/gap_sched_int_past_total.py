"""Known-wrong warmup_cosine_lr (gap round): past total_steps returns eta_min as it was given, an int 0
by default ("returns the learning rate (a Python float)")."""
from course.grading.class_run.submissions import edited

CELLS = {"schedule_impl": edited("00-03", "schedule_impl",
    ("        return float(eta_min)", "        return eta_min"))}
EXPECT = {"schedule": "fail"}
