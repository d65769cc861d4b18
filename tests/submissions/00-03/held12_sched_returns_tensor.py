"""Round 12 (held out): the cosine part is computed with torch.cos on a 0-dim tensor and returned as it is,
a tensor, not "a Python float" as the text asks (the warm-up and past-total branches do return floats)."""
from course.grading.class_run.submissions import edited

EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edited("00-03", "schedule_impl", (
    "    return eta_min + (base_lr - eta_min) * (1.0 + math.cos(math.pi * progress)) / 2.0\n",
    "    return eta_min + (base_lr - eta_min) * (1.0 + torch.cos(torch.tensor(math.pi * progress, "
    "dtype=torch.float64))) / 2.0\n"))}
