"""Known-wrong: empty_cache releases every segment, live tensors included (and forgets them)."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"allocator_impl": _patch("allocator_impl",
                                  "        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]",
                                  "        self.segments = []\n        self.where = {k: None for k in self.where}")}
# empty_cache lives in the allocator's cell: the other allocator checks must still pass with this change
JUDGE_PASS = True
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "zero", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
