"""Round 15: capture_activations stores output.detach().cpu() (to spare GPU memory): on a GPU model the
activations come back on the CPU, not as "that submodule's output, detached"."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    "captured[name] = output.detach()", "captured[name] = output.detach().cpu()"))}
