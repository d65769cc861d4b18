"""Wrong (held-out round 3): the cosine part is computed with torch.cos on a float64 tensor and returned
as that 0-dim tensor; the text asks for a Python float (the warm-up and the tail return floats)."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "pass", "schedule": "fail", "collate": "pass"}
CELLS = {"schedule_impl": edited("00-03", "schedule_impl", (
    "(1.0 + math.cos(math.pi * progress))",
    "(1.0 + torch.cos(torch.tensor(math.pi * progress, dtype=torch.float64)))"))}
