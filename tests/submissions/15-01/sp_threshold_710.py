"""Known-wrong StableSoftplus: the naive formula, guarded only above x = 710, where the student believed
exp overflows; float64 overflows from about 709.8 and float32 from about 88.7."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"softplus_impl": _patch("softplus_impl", "return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))",
                                  "return torch.where(x > 710, x, torch.log1p(torch.exp(x)))")}
EXPECT = {"softplus": "fail"}
