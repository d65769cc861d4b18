"""Correct, written differently (round 27): sinusoidal_positions builds the angles as an outer product of
float64 positions and base ** (-2i / d) (the base kept a Python number), turns them into unit complex
numbers with torch.polar (cos + i sin, complex128), reads them back with view_as_real, swaps each (cos, sin)
pair to (sin, cos) with flip and casts at the end; empty tables (length 0) and d_model 0 come out empty."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("""    if d_model % 2:
        raise ValueError(f"d_model must be even, got {d_model}")
    pos = torch.arange(length, dtype=torch.float64)[:, None]
    freq = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angle = pos * freq
    return torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(length, d_model).to(dtype)""",
     """    if d_model % 2 != 0:
        raise ValueError("sinusoidal_positions: d_model must be even")
    twice_i = 2 * torch.arange(d_model // 2, dtype=torch.float64)
    angle = torch.outer(torch.arange(length, dtype=torch.float64), base ** (-twice_i / d_model))
    z = torch.polar(torch.ones_like(angle), angle)  # cos(angle) + i sin(angle)
    return torch.view_as_real(z).flip(-1).reshape(length, d_model).to(dtype)"""))}
EXPECT = {"embed": "pass"}
