"""Wrong (held-out round 28): calls `model.forward(x)` instead of `model(x)`, which skips the module's forward
pre-hooks and forward hooks. Violates "returns `model(x)` computed in evaluation mode" / "equals what
`model.eval()` followed by `model(x)` gives". Goes wrong on a model with a registered forward hook or pre-hook
(a hook that scales or normalises the output or input, nn.utils.weight_norm / spectral_norm which recompute the
weight in a pre-hook): the output differs from model.eval(); model(x)."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("            return model(x)\n", "            return model.forward(x)\n"),
)}
