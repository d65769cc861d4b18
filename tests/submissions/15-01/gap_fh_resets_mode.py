"""Known-wrong capture_activations (gap round): "restores" the mode with model.train(was) in its finally
block, which sets every submodule to the root's mode: a model in training mode with a BatchNorm frozen in
eval mode comes back with that BatchNorm in training mode."""
from course.grading.class_run.submissions import edited

CELLS = {"capture_impl": edited("15-01", "capture_impl",
    ("    try:\n        for n in names:", "    was = model.training\n    try:\n        for n in names:"),
    ("        for h in handles:\n            h.remove()", "        for h in handles:\n            h.remove()\n        model.train(was)"))}
EXPECT = {"forward_hooks": "fail"}
