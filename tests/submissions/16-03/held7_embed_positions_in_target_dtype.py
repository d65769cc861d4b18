"""Wrong: "Compute the angles in float64 and cast the result to dtype at the end". This table makes the
positions with torch.arange(length, dtype=dtype) and only then moves to float64: for float32 nothing
changes, but with dtype=torch.bfloat16 or torch.float16 positions past 256 (2048) are already rounded, so
whole rows of the table belong to a neighbouring position."""
from course.grading.class_run.submissions import edited

EXPECT = {"embed": "fail"}
CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    pos = torch.arange(length, dtype=torch.float64)[:, None]",
     "    pos = torch.arange(length, dtype=dtype).to(torch.float64)[:, None]"))}
