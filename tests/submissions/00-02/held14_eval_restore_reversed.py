"""Held-out round 14: evaluate restores the modes with `m.train(mode)`, visiting the modules children first
(`reversed(list(model.modules()))`). `train()` is recursive, so the root's call, last, puts every submodule in
the root's mode: a child that was in eval mode while the root trained comes back in training mode. The text:
"Every submodule is left in the train or eval mode it was in before the call, even when they differ"."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("        for m, mode in modes.items():\n            m.training = mode",
     "        for m, mode in reversed(list(modes.items())):\n            m.train(mode)"))}
