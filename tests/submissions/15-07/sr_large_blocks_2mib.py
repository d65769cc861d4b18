"""Known-wrong size rule: round_size mixes up rule 1 and rule 3 and rounds large requests (over 1 MiB)
to a multiple of 2 MiB instead of 512 bytes. Pools are still right at the 1 MiB edge."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"size_rules_impl": _patch("size_rules_impl", "    return MIN_BLOCK * ((nbytes + MIN_BLOCK - 1) // MIN_BLOCK)",
                                      "    if nbytes > SMALL_SIZE:\n        return ROUND_LARGE * ((nbytes + ROUND_LARGE - 1) // ROUND_LARGE)\n"
                                      "    return MIN_BLOCK * ((nbytes + MIN_BLOCK - 1) // MIN_BLOCK)")}
EXPECT = {"size_rules": "fail"}
