"""Held-out round 24: accumulate_grads runs each micro-batch through model.forward(xb) instead of model(xb),
which skips the module's forward hooks and forward pre-hooks. Breaks "Call model(inputs_j) once per
micro-batch" and "the gradient of loss_fn(model(inputs), targets) on the full batch". Goes wrong on a model
with a hook on the top-level module (e.g. register_forward_hook that scales the output, or a forward pre-hook
that normalises the inputs, as weight_norm/spectral_norm and quantisation observers use): the gradients and
the returned loss are those of the model without the hook."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("        loss = loss_fn(model(xb), yb)\n",
     "        loss = loss_fn(model.forward(xb), yb)\n"))}
