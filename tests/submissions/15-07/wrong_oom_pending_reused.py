"""Found in the 2026-11-26 blind batch (issue #19): will_oom treats every block that is not
"active_allocated" as free, so an "active_pending_free" block (freed, still read by a kernel on another
stream) serves a request, and a segment of pending blocks counts as releasable. The text: "Only
"inactive" blocks can be reused"; step 3 releases fully free segments only."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-07").cells}
_OLD_FIT = 'any(b["state"] == "inactive" and b["size"] >= size'
_OLD_REL = 'releasable = summarize_snapshot(segments)["releasable"]'
assert _OLD_FIT in _SRC["oom_impl"] and _OLD_REL in _SRC["oom_impl"]

CELLS = {"oom_impl": _SRC["oom_impl"]
         .replace(_OLD_FIT, 'any(b["state"] != "active_allocated" and b["size"] >= size')
         .replace(_OLD_REL, 'releasable = sum(s["total_size"] for s in segments if s["allocated_size"] == 0)')}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "oom_diagnosis": "fail", "cuda_timing": "pass"}
