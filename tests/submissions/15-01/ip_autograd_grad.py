"""Known-wrong run_fixed: uses torch.autograd.grad instead of backward, so x.grad is never set (the
returned gradient is right)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"inplace_impl": _patch("inplace_impl", "    y = torch.exp(x) + 1\n    y.sum().backward()\n    return x.grad",
                                 "    y = torch.exp(x) + 1\n    (g,) = torch.autograd.grad(y.sum(), x)\n    return g")}
EXPECT = {"inplace": "fail"}
