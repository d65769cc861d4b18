"""Dropout drawn with torch.rand_like: right shape and rule, but from the global generator, not the one passed in."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "fail"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "u = torch.rand(w.shape, generator=generator, dtype=w.dtype, device=w.device)", "u = torch.rand_like(w)"))}
