"""Known-wrong sinusoidal_positions (round 25): the base is made a tensor with `torch.tensor(base)`, which is
float32, before the float64 power. For the bases 10000, 100 and 2 this is exact, but a base such as
12345.678 is rounded to float32 (relative error about 3e-8), so the frequencies, and the angles of positions
in the thousands, are off by about 2e-6 (position 4000, float64): the text says the table is sin/cos(p / base^(2i/d)) for the given
`base` with "the angles in float64" (goes wrong on sinusoidal_positions(4000, 8, base=12345.678,
dtype=torch.float64))."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    freq = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)",
     "    freq = torch.tensor(base) ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)"))}
EXPECT = {"embed": "fail"}
