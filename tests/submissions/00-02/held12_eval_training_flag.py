"""Round 12 (held out): eval mode is entered by setting m.training = False on every module instead of
calling model.eval(); a module whose train() does more than set the flag (an override, as many libraries
write) is not switched: not "what model.eval() followed by model(x) gives"."""
from course.grading.class_run.submissions import edited

EXPECT = {"evaluate": "fail"}
CELLS = {"evaluate_impl": edited("00-02", "evaluate_impl", (
    "    model.eval()\n",
    "    for m in model.modules():\n        m.training = False\n"))}
