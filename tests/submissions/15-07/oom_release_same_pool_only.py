"""Known-wrong OOM prediction: step 3 releases only the wholly free segments of the request's own pool,
although the allocator frees every fully free cached segment, small and large."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"oom_impl": _patch("oom_impl", "    releasable = summarize_snapshot(segments)[\"releasable\"]",
                               "    releasable = summarize_snapshot([s for s in segments if s[\"segment_type\"] == pool])[\"releasable\"]")}
EXPECT = {"oom_diagnosis": "fail"}
