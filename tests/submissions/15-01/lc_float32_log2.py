"""Known-wrong LogCosh: log 2 taken from a float32 tensor, so float64 results are off by about 2e-9
(relative errors are large near x = 0, where log cosh x is about x**2 / 2)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"logcosh_impl": _patch("logcosh_impl", "- math.log(2.0)", "- torch.log(torch.tensor(2.0))")}
EXPECT = {"logcosh": "fail"}
