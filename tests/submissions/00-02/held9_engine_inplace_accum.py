"""Held-out round 9: backward accumulates a node's incoming gradients in place (grads[p].add_(gp)), but
add hands the very same gradient tensor to both of its operands, so adding a second contribution to one
operand silently changes the other operand's gradient too; the text says backward adds d(out)/d(leaf)
into every leaf's .grad, and a value used twice receives the sum of both uses (not more)."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "fail", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("grads[id(p)] = gp if id(p) not in grads else grads[id(p)] + gp",
     "grads[id(p)] = gp if id(p) not in grads else grads[id(p)].add_(gp)"))}
