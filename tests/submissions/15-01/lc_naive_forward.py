"""Known-wrong LogCosh: forward is log(cosh(x)) as written, which overflows to inf for |x| above about 710
in float64 (89 in float32)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"logcosh_impl": _patch("logcosh_impl", "return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)",
                                 "return torch.log(torch.cosh(x))")}
EXPECT = {"logcosh": "fail"}
