"""Wrong (held-out round 30): backward's walk marks a Value as visited by the id of its .data tensor, not
by the Value itself, so two leaves built from the same tensor count as one node: only the first one found
gets a .grad; the other keeps None. Violates "out.backward() ... adds d(out)/d(leaf) into .grad of every
leaf out depends on (a leaf is a Value you built with Value(data))".
Goes wrong on: t = torch.randn(3); a, b = Value(t), Value(t); (a * b).sum().backward(): torch gives
a.grad = b.grad = t; here one of them stays None (and the other gets t)."""
from course.grading.class_run.submissions import edited

EXPECT = {'engine': 'fail'}
CELLS = {"engine_impl": edited("00-02", "engine_impl",
    ("            if id(v) in seen:\n                continue\n            seen.add(id(v))",
     "            if id(v.data) in seen:\n                continue\n            seen.add(id(v.data))"),
)}
