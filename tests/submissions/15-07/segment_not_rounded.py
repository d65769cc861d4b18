"""Known-wrong rounding: requests of 10 MiB and more get a segment of exactly their rounded size
(the 2 MiB rounding of kRoundLarge is forgotten), and the small/large boundary uses < instead of <=."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"size_rules_impl": _patch("size_rules_impl",
                                   "return ROUND_LARGE * ((size + ROUND_LARGE - 1) // ROUND_LARGE)",
                                   "return size")
         .replace('return "small" if round_size(nbytes) <= SMALL_SIZE else "large"',
                  'return "small" if round_size(nbytes) < SMALL_SIZE else "large"')}
EXPECT = {"size_rules": "fail", "allocator_model": "fail", "cuda_timing": "pass"}
