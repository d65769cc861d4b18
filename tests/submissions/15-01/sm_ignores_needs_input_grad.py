"""Known-wrong ScaledMul: backward always computes both gradients, ignoring ctx.needs_input_grad
(autograd silently drops a gradient for an input that needs none, so the values still look right)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"scaled_mul_impl": _patch("scaled_mul_impl", "        if ctx.needs_input_grad[0]:\n            gx", "        if True:\n            gx")
         .replace("        if ctx.needs_input_grad[1]:\n            gy", "        if True:\n            gy")}
EXPECT = {"scaled_mul": "fail"}
