"""Held-out round 24: insert_observers calls gm.requires_grad_(False) on the GraphModule it returns ("calibration
needs no gradients"). symbolic_trace does not copy leaf modules, so the GraphModule's Conv2d/Linear modules are the
model's own and the model's parameters are frozen too. It breaks "Return the `GraphModule`; it must ... not change
`model`" for every model with parameters (requires_grad of each parameter turns False); outputs, modes, submodules
and state_dict values are unchanged."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "fail",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"insert_observers_impl": edited(
    "15-06", "insert_observers_impl",
    ("    gm.graph.lint()\n", "    gm.requires_grad_(False)  # calibration only: no gradients needed\n    gm.graph.lint()\n"))}
