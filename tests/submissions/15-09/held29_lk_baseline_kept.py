"""Held-out round 29 (15-09 leaks): find_leaks keeps the list of tensors that were alive before the first call
(a plain list, "they are never leaks anyway") until it returns, and uses weak references only for the scans after
each call. Every tensor that existed before find_leaks (a model's old activations, a cache the step empties in
its first call) is kept alive by the finder through all n_iters calls of step: a step that drops a tensor that
existed before (del cache["old"]) and checks in its next call that it died (weakref) finds it still alive.
Breaks "It holds no strong reference to any tensor between calls of step (use weakref)"; the returned shapes are
right."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    "    seen = alive()\n",
    "    before = _live_tensors()  # what existed before the first call: never a leak\n"
    "    seen = {id(t): weakref.ref(t) for t in before}\n"), (
    "    del now, seen\n",
    "    del now, seen, before\n"))}
