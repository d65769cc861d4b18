"""Known-wrong sinusoidal_positions (round 27): its parameters are (length, d_model, dtype=torch.float32,
base=10000.0), dtype before base. Keyword calls are right; sinusoidal_positions(200, 8, 12345.678) by
position passes the base as the dtype (and raises), and sinusoidal_positions(6, 4, 10000.0, torch.float64)
raises too. The text fixes the order: "sinusoidal_positions(length, d_model, base=10000.0,
dtype=torch.float32)" (goes wrong on base passed by position)."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("def sinusoidal_positions(length, d_model, base=10000.0, dtype=torch.float32):",
     "def sinusoidal_positions(length, d_model, dtype=torch.float32, base=10000.0):"))}
EXPECT = {"embed": "fail"}
