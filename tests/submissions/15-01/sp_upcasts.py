"""Known-wrong StableSoftplus: computes in float64 for safety and returns float64 for a float32 input."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"softplus_impl": _patch("softplus_impl", "return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))",
                                  "x = x.double()\n        return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))")}
EXPECT = {"softplus": "fail"}
