"""Held-out round 27: the temperature is made keyword-only, `def nt_xent_loss(z1, z2, *, temperature=0.5)`
("so that nobody passes it by accident"), so `nt_xent_loss(z1, z2, 0.2)` raises TypeError. The text gives the
signature `nt_xent_loss(z1, z2, temperature=0.5)` and asks: "Handle any `N >= 1`, any embedding size and any
positive temperature": a temperature given by position is a temperature the signature allows."""
from course.grading.class_run.submissions import edited

EXPECT = {"nt_xent": "fail"}
CELLS = {"nt_xent_impl": edited(
    "15-04", "nt_xent_impl",
    ("def nt_xent_loss(z1, z2, temperature=0.5):\n", "def nt_xent_loss(z1, z2, *, temperature=0.5):\n"))}
