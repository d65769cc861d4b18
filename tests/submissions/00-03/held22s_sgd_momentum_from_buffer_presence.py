"""Held-out round 22, second pass: the momentum branch is chosen by whether a buffer exists (the student's step
reads "if the buffer exists, update it; else, if momentum is not 0, make it"), not by the group's momentum read at
this step. When a schedule sets momentum to 0 after buffers exist, the buffer is still updated, buf = 0 * buf +
(1 - dampening) * d, and the step uses it, while torch.optim.SGD steps with d and leaves the buffer as it was.
Breaks "hyperparameters changed in self.param_groups between steps ...: read them at every step()"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                if mu != 0:\n", "                if mu != 0 or \"momentum_buffer\" in self.state[p]:\n"))}
