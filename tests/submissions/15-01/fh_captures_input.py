"""Known-wrong capture_activations: records the module's input (inputs[0]) instead of its output; the
shapes agree for ReLU and most activations, the values do not."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"capture_impl": _patch("capture_impl", "captured[name] = output.detach()", "captured[name] = inputs[0].detach()")}
EXPECT = {"forward_hooks": "fail"}
