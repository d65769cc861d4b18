"""Known-wrong sinusoidal_positions (round 12): the angles are float64, but the table is filled into a
torch.zeros(length, d_model) buffer of the default dtype (float32) and only then cast to dtype, so
dtype=torch.float64 returns float32-accurate values ("cast the result to dtype at the end")."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("return torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(length, d_model).to(dtype)",
     "pe = torch.zeros(length, d_model)\n"
     "    pe[:, 0::2] = torch.sin(angle)\n"
     "    pe[:, 1::2] = torch.cos(angle)\n"
     "    return pe.to(dtype)"))}
EXPECT = {"embed": "fail"}
