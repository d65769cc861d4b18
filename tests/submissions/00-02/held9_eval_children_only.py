"""Held-out round 9: evaluate remembers the modes of the model and its direct children only, calls
model.eval(), and afterwards model.train() then puts each remembered mode back; a grandchild that was in
eval mode inside a child in training mode (a frozen sub-block) is left in training mode; the text says
every submodule is left in the mode it was in before the call."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "fail", "checkpoint": "pass"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("modes = {m: m.training for m in model.modules()}",
     "modes = {m: m.training for m in [model, *model.children()]}"),
    ("        for m, mode in modes.items():\n",
     "        model.train()\n        for m, mode in modes.items():\n"))}
