"""Held-out round 21: insert_observers puts each RangeObserver on the device of next(model.parameters()),
which raises StopIteration for a model without parameters (a ReLU/MaxPool stack); the text says insert_observers
returns the GraphModule for any model and op_types."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "fail",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"insert_observers_impl": edited(
    "15-06", "insert_observers_impl",
    ("        gm.add_submodule(name, RangeObserver())\n",
     "        gm.add_submodule(name, RangeObserver().to(next(model.parameters()).device))\n"))}
