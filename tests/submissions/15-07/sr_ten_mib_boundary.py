"""Known-wrong size rule: a rounded size of exactly 10 MiB still gets a shared 20 MiB segment
(the student read rule 3 as 'up to and including 10 MiB')."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"size_rules_impl": _patch("size_rules_impl", "if size < MIN_LARGE_ALLOC:", "if size <= MIN_LARGE_ALLOC:")}
EXPECT = {"size_rules": "fail"}
