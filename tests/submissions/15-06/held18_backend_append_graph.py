"""Held-out round 18: the backend appends gm.graph (the fx.Graph) instead of gm (the GraphModule) to graphs, so the
recorded entries cannot be run or read as modules; the text says backend(gm, example_inputs) "appends gm to
graphs"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("        graphs.append(gm)\n", "        graphs.append(gm.graph)\n"))}
