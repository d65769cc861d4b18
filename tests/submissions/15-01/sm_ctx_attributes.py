"""Known-wrong ScaledMul: x and y are kept as ctx attributes instead of ctx.save_for_backward, so an
in-place change after forward goes unnoticed and the gradients silently use the new values."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"scaled_mul_impl": _patch("scaled_mul_impl", "        ctx.save_for_backward(x, y)\n", "        ctx.x, ctx.y = x, y\n")
         .replace("        x, y = ctx.saved_tensors\n", "        x, y = ctx.x, ctx.y\n")}
EXPECT = {"scaled_mul": "fail"}
