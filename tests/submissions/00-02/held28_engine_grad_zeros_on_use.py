"""Wrong (held-out round 28): micrograd habit: as soon as a leaf is used in an operation, its `.grad` is set to
zeros (so that backward can always add). Violates "`.grad` is `None` until a `backward()` reaches it" and "a leaf
the output does not depend on keeps `.grad` as `None`". Goes wrong on a, b, c leaves with out = (a * b).sum() and
another expression other = (c * c).sum() that is never backwarded: after out.backward(), c.grad is zeros instead
of None; and a.grad is zeros right after building out, before any backward."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        self._rule = _rule  # grad_out -> one gradient per parent\n",
     "        self._rule = _rule  # grad_out -> one gradient per parent\n"
     "        for p in _parents:  # leaves start at zero once they are used\n"
     "            if not p._parents and p.grad is None:\n"
     "                p.grad = torch.zeros_like(p.data)\n"),
)}
