"""Held-out round 27: `evaluate` restores the modes by calling `m.train(mode)` on each module of
`model.modules()`, in that (pre-)order. On a tree that is right (a parent first sets its whole subtree, then each
child sets its own), but `modules()` yields a module shared by two parents only once, under the first: the second
parent's `train(mode)` comes later and overwrites it. A shared layer in training mode under a parent in eval
mode comes back in eval mode. The text: "Every submodule is left in the train or eval mode it was in before the
call, even when they differ"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "fail", "checkpoint": "pass"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("""        for m, mode in modes.items():
            m.training = mode
""", """        for m, mode in modes.items():
            m.train(mode)
"""))}
