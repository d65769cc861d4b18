"""Held-out round 9: find_leaks lists the tensors of gc.get_objects() without running gc.collect() first (and
not before its final check either), so a tensor held only by a reference cycle that became garbage in the step
still counts as alive and is reported as a leak while no automatic collection has run; the text says it runs
gc.collect() after each call and reports the tensors still alive."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited(
    "15-09", "leaks_impl",
    ("        return {id(t): weakref.ref(t) for t in _live_tensors()}\n",
     "        return {id(t): weakref.ref(t) for t in gc.get_objects() if issubclass(type(t), torch.Tensor)}\n"),
    ("    del now, seen\n    gc.collect()\n", "    del now, seen\n"))}
