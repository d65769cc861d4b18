"""Held-out round 21: the backend prints the shapes of its example inputs, which crashes on the SymInt inputs
Dynamo passes after a shape change makes it recompile with a dynamic size; the text says "Every graph Dynamo captures
... must end up in graphs" and the compiled function "still computes the right values"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited(
    "15-06", "recording_backend_impl",
    ("        print(f\"--- graph {len(graphs)} captured by Dynamo ({len(example_inputs)} inputs) ---\")\n",
     "        print(f\"--- graph {len(graphs)}: input shapes {[tuple(t.shape) for t in example_inputs]} ---\")\n"))}
