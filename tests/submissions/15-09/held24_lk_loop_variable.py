"""find_leaks records the live tensors with a for loop in its own frame (for t in _live_tensors(): ...). After the loop
the name t still refers to the last tensor scanned, a strong reference held through the next call of step: a tensor
that step replaces (or returns) does not die at the moment it should. Breaks "It holds no strong reference to any
tensor between calls of step (use weakref)"; wrong for a step that checks, through a weak reference, that the value it
replaced last time has died."""
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
""",
    """    seen = {}
    for t in _live_tensors():
        seen[id(t)] = weakref.ref(t)
    born = []
    for _ in range(n_iters):
        step()
        now = {}
        for t in _live_tensors():
            now[id(t)] = weakref.ref(t)
"""))}
