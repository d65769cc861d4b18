"""Held-out round 14 (written after the count, for the class the count's miss belonged to): evaluate switches
to eval mode only when the model itself is training (`if model.training: ...`), reading the root's flag as the
whole model's. A model in eval mode holding a submodule in training mode (a Dropout switched back by hand)
runs that submodule in training mode. The text: "returns `model(x)` computed in evaluation mode", "equals
what `model.eval()` followed by `model(x)` gives"."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("    model.eval()\n", "    if model.training:\n        model.eval()\n"))}
