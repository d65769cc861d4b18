"""Known-wrong MomentumSGD (gap round): skips a parameter that does not require grad even when it has a
.grad, where torch.optim.SGD steps every parameter with a .grad ("A parameter whose .grad is None is not
changed"; every parameter equals what torch.optim.SGD gives)."""
from course.grading.class_run.submissions import edited

CELLS = {"sgd_impl": edited("00-03", "sgd_impl",
    ("                if p.grad is None:\n                    continue\n                d = p.grad",
     "                if p.grad is None or not p.requires_grad:\n                    continue\n                d = p.grad"))}
EXPECT = {"sgd": "fail"}
