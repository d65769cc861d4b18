"""Held-out round 29, a correct answer written unusually: the recording backend prints the captured graph with
`gm.print_readable()`, appends `gm`, and returns `fx.Interpreter(gm).run` instead of `gm.forward`: the
Interpreter walks the same graph node by node (each node once, SymInt inputs included), so the compiled
function computes the same values. Expected to pass everywhere."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("        print(gm.graph)\n", "        gm.print_readable()\n"),
    ("        return gm.forward\n", "        return fx.Interpreter(gm).run\n"))}
