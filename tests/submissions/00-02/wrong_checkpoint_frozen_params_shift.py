"""Blind batch, issue #19, third round (checkpoint): breaks 'returns the gradients ... of every parameter': frozen
parameters are left out of the autograd.grad call, but the gradients that come back are returned in order and
padded with None at the END, so with a frozen parameter before a trainable one every later gradient lands on the
wrong parameter."""
from course.grading.class_run.submissions import edited

EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'pass', 'checkpoint': 'fail'}
CELLS = {"checkpoint_impl": edited("00-02", "checkpoint_impl",
    ("        return (None, gx, *[next(grads) if p.requires_grad else None for p in params])",
     "        rest = list(grads)\n        return (None, gx, *rest, *[None] * (len(params) - len(rest)))"))}
