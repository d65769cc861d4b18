"""Known-wrong capture_activations: handles are removed after model(x) returns, without try/finally, so
they stay on the modules when the forward pass raises."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"capture_impl": _patch("capture_impl", "    try:\n        for n in names:\n            handles.append(modules[n].register_forward_hook(make_hook(n)))\n        model(x)\n    finally:\n        for h in handles:\n            h.remove()",
                                 "    for n in names:\n        handles.append(modules[n].register_forward_hook(make_hook(n)))\n    model(x)\n    for h in handles:\n        h.remove()")}
EXPECT = {"forward_hooks": "fail"}
