"""Patches cut with reshape alone: without the permute, the numbers of one 'patch' come from a strip of rows of
one channel, not from a ph x pw square across the channels."""
from course.grading.class_run.submissions import edited

EXPECT = {"embed": "fail"}
CELLS = {"embed_impl": edited("16-03", "embed_impl", (
    "patches = x.permute(0, 2, 4, 1, 3, 5).reshape(n, gh * gw, c * ph * pw)",
    "patches = x.reshape(n, gh * gw, c * ph * pw)"))}
