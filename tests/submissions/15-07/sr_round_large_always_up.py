"""Known-wrong size rule: big segments are rounded with floor division plus one, so a size that is
already a multiple of 2 MiB gets 2 MiB too much (12 MiB -> 14 MiB); 11 MiB -> 12 MiB still looks right."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"size_rules_impl": _patch("size_rules_impl", "return ROUND_LARGE * ((size + ROUND_LARGE - 1) // ROUND_LARGE)",
                                      "return ROUND_LARGE * (size // ROUND_LARGE + 1)")}
EXPECT = {"size_rules": "fail"}
