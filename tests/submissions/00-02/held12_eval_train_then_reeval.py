"""Round 12 (held out): the modes are restored by model.train() and then .eval() on each module that was
in eval mode. eval() is recursive, so when the root was in eval mode and a child in training mode, the
child ends in eval mode ("every submodule is left in the mode it was in, even when they differ")."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited("00-02", "evaluate_impl", (
    "        for m, mode in modes.items():\n            m.training = mode\n",
    "        model.train()\n        for m, mode in modes.items():\n            if not mode:\n                m.eval()\n"))}
