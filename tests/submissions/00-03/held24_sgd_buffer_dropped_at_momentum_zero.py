"""Held-out round 24: a parameter stepped while its group's momentum is 0 loses its state (self.state.pop(p)),
to keep "made only when momentum is not 0" true at all times. Breaks "while a group's momentum is set to 0
later, its buffers are neither used nor changed nor dropped, as in torch.optim.SGD". Goes wrong on: momentum 0.9
for two steps, group["momentum"] = 0 for one step (the buffer is gone from state[p] and from state_dict()),
then 0.9 again: the buffer restarts as a copy of d and the parameter leaves torch.optim.SGD's path."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                if mu != 0:\n"
     "                    state = self.state[p]\n",
     "                if mu == 0:\n"
     "                    self.state.pop(p, None)\n"
     "                if mu != 0:\n"
     "                    state = self.state[p]\n"))}
