"""Starts the running maximum at 0 instead of -inf: correct while some score is above about -100, but when every
score of a row is far below zero, exp underflows to 0 in float32 and the result is 0 / 0."""
from course.grading.class_run.submissions import edited

EXPECT = {"blocked": "fail"}
CELLS = {"blocked_impl": edited("16-03", "blocked_impl", (
    'm = torch.full(q.shape[:-1] + (1,), float("-inf"), dtype=q.dtype, device=q.device)',
    'm = torch.zeros(q.shape[:-1] + (1,), dtype=q.dtype, device=q.device)'))}
