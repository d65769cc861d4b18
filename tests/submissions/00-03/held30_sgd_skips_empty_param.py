"""Held-out round 30: step() skips a parameter whose .grad has no elements (an "optimisation").
Breaks "Only None skips a parameter: one that has a .grad is stepped" and "Keep the momentum buffer in
self.state[p]['momentum_buffer'] (made only when momentum is not 0)": an empty parameter (shape (0,) or (3, 0))
with a .grad and momentum 0.9 gets no state at all, where torch.optim.SGD keeps an empty momentum_buffer.
Every non-empty parameter is stepped exactly as torch does."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                if p.grad is None:\n                    continue\n                d = p.grad\n",
     "                if p.grad is None or p.grad.numel() == 0:\n                    continue\n"
     "                d = p.grad\n"))}
