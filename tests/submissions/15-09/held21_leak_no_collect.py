"""find_leaks lists the live tensors straight from gc.get_objects() without running gc.collect() after each call:
tensors held only by reference cycles that died in an iteration (an exception's traceback frame, an object that
refers to itself) are still listed, and are reported as leaks, although the text says "After each call it runs
gc.collect()" and a tensor no longer reachable is not alive."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    """    def alive():
        return {id(t): weakref.ref(t) for t in _live_tensors()}
""",
    """    def alive():
        return {id(o): weakref.ref(o) for o in gc.get_objects() if issubclass(type(o), torch.Tensor)}
"""), (
    """    del now, seen
    gc.collect()
""",
    """    del now, seen
"""))}
