"""find_leaks runs gc.collect() before each call of step (to start every iteration from a clean heap) and takes its
"before" and "after" snapshots around step, but never collects after a call, the last one included. A tensor held
only by a reference cycle that the last call of step drops (a step that replaces self-referencing holder objects,
a caught exception whose traceback holds the frame, a node of a linked structure) is garbage not yet collected, and
its weak reference is still alive when the result is built: a tensor born in iteration n - 1 and released by the
last call is reported as a leak. Breaks "After each call it runs gc.collect()" and "tensors born in iterations 2 to
n_iters - 1 that are still alive after the last call" (step that keeps its latest output in a self-referencing
holder: the reference returns [], this answer returns the shape of iteration n - 1's output)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    """    def alive():
        return {id(t): weakref.ref(t) for t in _live_tensors()}

    seen = alive()
    born = []
    for _ in range(n_iters):
        step()
        now = alive()
        born.append([r for key, r in now.items() if key not in seen or seen[key]() is not r()])
        seen = now
    del now, seen
    gc.collect()
""",
    """    def alive():
        return {id(t): weakref.ref(t) for t in gc.get_objects() if issubclass(type(t), torch.Tensor)}

    born = []
    for _ in range(n_iters):
        gc.collect()  # a clean heap before each step
        seen = alive()
        step()
        now = alive()
        born.append([r for key, r in now.items() if key not in seen or seen[key]() is not r()])
    del now, seen
"""))}
