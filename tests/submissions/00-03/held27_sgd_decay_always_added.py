"""Held-out round 27: always computes d = g + weight_decay * p, also when weight_decay is 0 (torch.optim.SGD
adds the decay only when weight_decay != 0). For finite weights 0 * p is 0 and nothing changes, but a weight
that holds inf (or where 0 * p is nan) becomes nan: inf - lr * (g + 0 * inf) = nan, where torch.optim.SGD keeps
inf. Breaks "After any number of step() calls, every parameter equals what torch.optim.SGD with the same
arguments gives from the same start and the same gradients (inf and nan included)". Goes wrong on: a float64 parameter [inf, 1.0] with
gradient [1.0, 1.0], lr 0.1, momentum 0.9, weight_decay 0: torch gives [inf, 0.9], this gives [nan, 0.9]."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "fail", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"sgd_impl": edited(
    "00-03", "sgd_impl",
    ("                if wd != 0:\n"
     "                    d = d.add(p, alpha=wd)\n",
     "                d = d.add(p, alpha=wd)\n"))}
