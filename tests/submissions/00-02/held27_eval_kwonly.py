"""Held-out round 27: `evaluate` makes `keep_for_autograd` keyword-only (`def evaluate(model, x, *,
keep_for_autograd=False)`). Every keyword call works, but `evaluate(model, x, True)` raises TypeError. The text:
"Implement `evaluate(model, x, keep_for_autograd=False)`", a signature whose third parameter may be given by
position."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "fail", "checkpoint": "pass"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("def evaluate(model, x, keep_for_autograd=False):", "def evaluate(model, x, *, keep_for_autograd=False):"))}
