"""Held-out round 17: evaluate remembers which submodules were training and, afterwards, calls `m.train()` on
each of them. `train()` is recursive: a training parent puts back into training mode every child it holds,
also a child that was in eval mode before the call (a frozen BatchNorm inside a model being fine-tuned). A
model in eval mode with training children comes back right. The text: "Every submodule is left in the train or
eval mode it was in before the call, even when they differ"."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("    modes = {m: m.training for m in model.modules()}\n",
     "    was_training = [m for m in model.modules() if m.training]\n"),
    ("        for m, mode in modes.items():\n"
     "            m.training = mode\n",
     "        for m in was_training:\n"
     "            m.train()\n"))}
