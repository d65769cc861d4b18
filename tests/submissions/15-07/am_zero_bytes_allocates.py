"""Known-wrong zero-byte request: malloc(name, 0) goes through the allocator and takes a 512-byte
block (round_size gives at least 512), although rule 8 says nothing changes."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl", "        if nbytes == 0:\n            self.where[name] = None\n            return\n", "")}
EXPECT = {"allocator_model": "fail"}
