"""Held-out round 14: pack clamps to bfloat16's finite range before the cast ("so that float64 cannot
overflow"), which turns +-inf into +-3.39e38. The text: unpack returns a tensor "equal to `t` up to bfloat16
rounding"; the bfloat16 rounding of inf is inf (NaN stays NaN here)."""
from course.grading.class_run.submissions import edited

EXPECT = {"compress": "fail"}
CELLS = {"compress_impl": edited(
    "00-02", "compress_impl",
    ("        return (t.to(torch.bfloat16), t.dtype)",
     "        big = torch.finfo(torch.bfloat16).max\n"
     "        return (t.clamp(-big, big).to(torch.bfloat16), t.dtype)"))}
