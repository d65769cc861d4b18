"""Round 12 (held out): each micro-batch goes through model.forward(xb) instead of model(xb), so the model's
forward hooks (and pre-hooks) never run. The text asks for "model(inputs_j) once per micro-batch" and the
gradient of loss_fn(model(inputs), targets); a model with a forward hook that changes its output gets the
gradient of a different function."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail"}
CELLS = {"accumulate_impl": edited("00-03", "accumulate_impl", (
    "        loss = loss_fn(model(xb), yb)\n", "        loss = loss_fn(model.forward(xb), yb)\n"))}
