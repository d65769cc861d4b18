"""Held-out round 30: weights each micro-loss by its share of the input elements, xb.numel() / inputs.numel(),
instead of its share of the samples. Equal whenever the inputs have at least one feature, but breaks "batch is
a pair (inputs, targets) of tensors whose first dimension is the batch size N >= 1" for inputs with no features:
inputs of shape (N, 0) (e.g. a model nn.Linear(0, 2), whose output is its bias) raise ZeroDivisionError instead of
accumulating the bias's gradient."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("        weight = xb.shape[0] / n\n", "        weight = xb.numel() / inputs.numel()\n"))}
