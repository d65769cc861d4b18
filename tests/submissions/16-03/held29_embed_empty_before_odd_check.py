"""Known-wrong sinusoidal_positions (round 29): it returns the empty table for length 0 before it checks
d_model, so sinusoidal_positions(0, 5) returns a (0, 5) tensor instead of raising. The text: "An odd
d_model raises ValueError" (for any length; goes wrong on sinusoidal_positions(0, 5))."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("    if d_model % 2:\n",
     "    if length == 0:  # nothing to compute\n"
     "        return torch.empty(0, d_model, dtype=dtype)\n"
     "    if d_model % 2:\n"))}
EXPECT = {"embed": "fail"}
