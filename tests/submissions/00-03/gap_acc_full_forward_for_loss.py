"""Known-wrong accumulate_grads (gap round): computes the returned loss with one more forward of the
whole batch under no_grad, so the model runs on the full batch too (a BatchNorm in training mode updates
its running statistics once more) ("Call model(inputs_j) once per micro-batch")."""
from course.grading.class_run.submissions import edited

CELLS = {"accumulate_impl": edited("00-03", "accumulate_impl",
    ("    return total\n",
     "    with torch.no_grad():\n        return float(loss_fn(model(inputs), targets))\n"))}
EXPECT = {"accumulate": "fail"}
