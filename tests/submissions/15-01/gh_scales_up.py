"""Known-wrong attach_grad_clipping: multiplies by max_norm / norm unconditionally, so small gradients are
scaled UP to norm max_norm."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"grad_clip_impl": _patch("grad_clip_impl", "        if norm > max_norm:\n            p.grad.mul_(max_norm / norm)", "        p.grad.mul_(max_norm / norm)")}
EXPECT = {"grad_hooks": "fail"}
