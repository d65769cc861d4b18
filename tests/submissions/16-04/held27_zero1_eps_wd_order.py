"""Known-wrong zero1_step (held-out round 27): the signature lists weight_decay before eps,
zero1_step(params, state, lr, betas, weight_decay, eps), so a caller that passes the six arguments by position gets
eps and weight_decay swapped. The text says "zero1_step(params, state, lr, betas, eps, weight_decay) runs on every
rank" (the argument order). Input on which it goes wrong: zero1_step(params, state, 0.1, (0.9, 0.999), 1e-8, 0.1):
this runs AdamW with eps = 0.1 and weight decay 1e-8."""
from course.grading.class_run.submissions import edited

CELLS = {"zero1_impl": edited("16-04", "zero1_impl", (
    "def zero1_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):\n",
    "def zero1_step(params, state, lr=1e-3, betas=(0.9, 0.999), weight_decay=1e-2, eps=1e-8):\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'fail', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
