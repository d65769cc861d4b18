"""Known-wrong snapshot summary: largest_free_block is the largest block of any state (a big live tensor
counts as a hole), so fragmentation is wrong too."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"oom_impl": _patch("oom_impl", "    largest = max(free_sizes, default=0)",
                               "    largest = max((b[\"size\"] for s in segments for b in s[\"blocks\"]), default=0) if free_sizes else 0")}
EXPECT = {"oom_diagnosis": "fail"}
