"""Held-out round 13 (fixed_add_positions, "returns x + k / seq at position k" for x of shape (batch, seq,
dim), "for any device"): k / seq is written as k * (1.0 / seq), a Python division, so an empty sequence
(seq = 0, x of shape (2, 0, 3)) raises ZeroDivisionError where the broken version and x + k / seq give the
empty result."""
from course.grading.class_run.submissions import edited

EXPECT = {"zoo": "fail"}
BASE = "reference"
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    "pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) / x.shape[1]",
    "pos = torch.arange(x.shape[1], device=x.device, dtype=x.dtype).unsqueeze(1) * (1.0 / x.shape[1])",
))}
