"""Held-out round 22, second pass: reading "Keep the momentum buffer ... (only when momentum is not 0)" at every
step, the student deletes the buffer whenever the group's momentum is 0. A schedule that sets momentum to 0 for a
step and back afterwards then restarts momentum from a fresh copy of d, while torch.optim.SGD keeps the old buffer
and goes on from it. Breaks "every parameter equals what torch.optim.SGD ... gives ..., and hyperparameters
changed in self.param_groups between steps"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                p.add_(d, alpha=-group[\"lr\"])\n",
     "                if mu == 0:\n                    self.state[p].pop(\"momentum_buffer\", None)\n"
     "                p.add_(d, alpha=-group[\"lr\"])\n"))}
