"""Known-wrong Clamp: backward returns the 0/1 mask itself and forgets to multiply by grad_out (right only
when the upstream gradient is all ones, as for .sum())."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"clamp_impl": _patch("clamp_impl", "return torch.where(mask, grad_out, torch.zeros_like(grad_out)), None, None",
                               "return mask.to(grad_out.dtype), None, None")}
EXPECT = {"clamp": "fail"}
