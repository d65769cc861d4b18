"""Known-wrong: the large pool splits off any remainder of at least 512 bytes (the > 1 MiB rule for the
large pool is missing)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl",
                                  'split = remainder >= MIN_BLOCK if pool == "small" else remainder > SMALL_SIZE',
                                  "split = remainder >= MIN_BLOCK")}
EXPECT = {"size_rules": "pass", "allocator_model": "fail", "cuda_timing": "pass"}
EXPECT_GPU = {"allocator_model": "fail"}  # its GPU-marked checks, on a GPU (make test-gpu)
