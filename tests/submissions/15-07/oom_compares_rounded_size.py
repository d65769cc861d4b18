"""Known-wrong OOM prediction: steps 2 and 3 compare the rounded request with the free device memory,
instead of the size of the segment cudaMalloc would have to create (a 3 MiB request needs 20 MiB)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"oom_impl": _patch("oom_impl", "    need = segment_size(nbytes)", "    need = size")}
EXPECT = {"oom_diagnosis": "fail"}
