"""Held-out round 9: sinusoidal_positions builds the frequencies the way many tutorials do,
exp(arange(0, d, 2).float() * (-log(base) / d)), in float32, and only the positions in float64; the angles of
positions in the thousands are then off by about 1e-4. The text says to compute the angles in float64 and cast
to dtype at the end."""
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass", "mha": "pass", "block": "pass", "embed": "fail", "kv_cache": "pass", "blocked": "pass"}
CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("freq = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)",
     "freq = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(base) / d_model))"))}
