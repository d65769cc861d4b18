"""Known-wrong LogCosh: backward writes tanh as (1 - exp(-2x)) / (1 + exp(-2x)), which is inf / inf = nan
for very negative x."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"logcosh_impl": _patch("logcosh_impl", "return grad_out * torch.tanh(x)",
                                 "e = torch.exp(-2 * x)\n        return grad_out * (1 - e) / (1 + e)")}
EXPECT = {"logcosh": "fail"}
