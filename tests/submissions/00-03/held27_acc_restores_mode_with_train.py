"""Held-out round 27: saves model.training before the loop and, "to leave the mode as it was", calls
model.train(saved) afterwards. model.train(mode) sets EVERY submodule to that mode, so a model whose submodules
are in different modes (a frozen BatchNorm kept in eval mode inside a model in train mode, the usual fine-tuning
setup) comes back with all of them in train mode. Breaks "Leave the parameter values, the model's train/eval
mode and the global grad mode as they were". Goes wrong on: nn.Sequential(Linear, BatchNorm1d, Linear) in
train mode with the BatchNorm1d set to eval(): after the call the BatchNorm1d is in train mode."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("    total = 0.0\n",
     "    total = 0.0\n"
     "    was_training = model.training\n"),
    ("    return total\n",
     "    model.train(was_training)\n"
     "    return total\n"))}
