"""Known-wrong StableSoftplus: log(1 + exp(-|x|)) instead of log1p, so for very negative x the tiny
true value (about exp(x)) is lost."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"softplus_impl": _patch("softplus_impl", "torch.log1p(torch.exp(-x.abs()))", "torch.log(1 + torch.exp(-x.abs()))")}
EXPECT = {"softplus": "fail"}
