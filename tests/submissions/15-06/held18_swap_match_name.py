"""Held-out round 18: swap_relu recognises the function forms by their __name__ ("relu" or "relu_"), so any other
function called relu that the trace keeps as a call_function node (a torch.fx.wrap-ped helper, say a clipped
relu) is replaced too; the text names the targets (torch.nn.functional.relu, torch.relu, torch.relu_: "the function
object") and says look-alikes "are different functions that must be left alone"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("(node.op == \"call_function\" and node.target in relu_functions)",
     "(node.op == \"call_function\" and getattr(node.target, \"__name__\", \"\") in (\"relu\", \"relu_\"))"))}
