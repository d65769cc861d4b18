"""Known-wrong sinusoidal_positions (round 29): it memoises tables in a dict on the function keyed by
(length, d_model, dtype) and forgets the base, so after sinusoidal_positions(6, 4) a call
sinusoidal_positions(6, 4, base=100.0) returns the base-10000 table (a clone of it). Every first call of a
key is right. The text: "returns the (length, d_model) table above ... for any positive base" (goes wrong on
the second of two calls with the same length, d_model and dtype and different bases)."""
from course.grading.class_run.submissions import edited

CELLS = {"embed_impl": edited(
    "16-03", "embed_impl",
    ("""    pos = torch.arange(length, dtype=torch.float64)[:, None]
    freq = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angle = pos * freq
    return torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(length, d_model).to(dtype)
""",
     """    tables = sinusoidal_positions.__dict__.setdefault("tables", {})
    key = (length, d_model, dtype)
    if key not in tables:
        pos = torch.arange(length, dtype=torch.float64)[:, None]
        freq = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
        angle = pos * freq
        tables[key] = torch.stack([torch.sin(angle), torch.cos(angle)], dim=-1).reshape(length, d_model).to(dtype)
    return tables[key].clone()
"""))}
EXPECT = {"embed": "fail"}
