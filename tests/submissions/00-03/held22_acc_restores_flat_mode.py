"""Held-out round 22: the student reads "Leave ... the model's train/eval mode ... as they were" literally and
saves model.training at the start, then calls model.train(saved) at the end "to restore it". On a model whose
submodules are in different modes (a model in train mode whose frozen batch-norm backbone is in eval mode, the
usual fine-tuning set-up), model.train(True) puts every submodule in train mode, so the next forward updates the
frozen running statistics. The gradients and the loss are right. Breaks "Leave ... the model's train/eval
mode ... as they were"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("    inputs, targets = batch\n", "    inputs, targets = batch\n    was_training = model.training\n"),
    ("    return total\n", "    model.train(was_training)\n    return total\n"))}
