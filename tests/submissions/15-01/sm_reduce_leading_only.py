"""Known-wrong ScaledMul: gradients are reduced only over the leading dimensions broadcasting added,
not over dimensions of size 1 that were expanded."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"scaled_mul_impl": _patch("scaled_mul_impl", "(grad_out * y * ctx.alpha).sum_to_size(x.shape)", "_lead(grad_out * y * ctx.alpha, x)")
         .replace("(grad_out * x * ctx.alpha).sum_to_size(y.shape)", "_lead(grad_out * x * ctx.alpha, y)")
         + "\n\ndef _lead(g, t):\n    while g.dim() > t.dim():\n        g = g.sum(0)\n    return g\n"}
EXPECT = {"scaled_mul": "fail"}
