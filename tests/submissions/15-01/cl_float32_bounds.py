"""Known-wrong Clamp: the bounds are turned into default-dtype (float32) tensors, so for float64 inputs the
clamped values and the kink positions are float32-rounded lo and hi."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"clamp_impl": _patch("clamp_impl", "        ctx.save_for_backward((x > lo) & (x < hi))\n        return x.clamp(lo, hi)",
                               "        lo_t, hi_t = torch.tensor(lo), torch.tensor(hi)\n"
                               "        ctx.save_for_backward((x > lo_t) & (x < hi_t))\n"
                               "        return torch.minimum(torch.maximum(x, lo_t), hi_t)")}
EXPECT = {"clamp": "fail"}
