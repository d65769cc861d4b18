"""Known-wrong sinusoidal_positions (round 16): the positions are made in the requested dtype and only then
turned to float64 ("small integers are exact"): in bfloat16 positions past 256 (float16: past 2048) are
rounded before the angles are taken, so rows of the table belong to other positions."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited("16-03", "embed_impl",
    ("pos = torch.arange(length, dtype=torch.float64)[:, None]",
     "pos = torch.arange(length, dtype=dtype)[:, None].double()  # integer positions: exact"))}
EXPECT = {"embed": "fail"}
