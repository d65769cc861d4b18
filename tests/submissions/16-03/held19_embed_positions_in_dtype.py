"""Known-wrong sinusoidal_positions (held-out round 19, positions x the requested dtype): the positions are
made with torch.arange(length, dtype=dtype) and only then widened to float64 for the angles. float32 and
float64 hold every integer position exactly, so those tables are right; in bfloat16 position 257 is stored as
256 (and float16 rounds past 2048), so rows repeat other positions' codes, where the text says the table is for
positions 0 .. length - 1 with the angles computed in float64 and the cast to dtype at the end."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    pos = torch.arange(length, dtype=torch.float64)[:, None]",
     "    pos = torch.arange(length, dtype=dtype).to(torch.float64)[:, None]"))}
EXPECT = {"embed": "fail"}
