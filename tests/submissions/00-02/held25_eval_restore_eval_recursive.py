"""Held-out round 25: `evaluate` restores the modes by calling `m.train()` on every module that was training,
in `modules()` order. `train()` is recursive, so a submodule that was in eval mode under a training parent is
switched back to training (and the order does not help: the parent comes first). Input: `Sequential(Linear,
Dropout)` in training mode with its Dropout put in eval mode before the call. The text: "Every submodule is left
in the train or eval mode it was in before the call, even when they differ"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "fail", "checkpoint": "pass"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("        for m, mode in modes.items():\n"
     "            m.training = mode\n",
     "        for m, mode in modes.items():\n"
     "            if mode:\n"
     "                m.train()\n"))}
