"""Known-wrong attach_grad_clipping: each hook rescales by the global norm over all parameters' current
gradients, as clip_grad_norm_ does, instead of the parameter's own norm."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"grad_clip_impl": _patch("grad_clip_impl", "        norm = p.grad.norm()\n",
                                   "        norm = torch.stack([q.grad.norm() for q in model.parameters() if q.grad is not None]).norm()\n")}
EXPECT = {"grad_hooks": "fail"}
