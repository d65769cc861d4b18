"""Held-out round 10: insert_observers traces a deep copy of model and puts the copy in eval mode ("observers
calibrate in inference"), so for a model in training mode (BatchNorm normalising with batch statistics, Dropout)
the returned GraphModule computes something else; the text says it must compute exactly what model computes."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "fail",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"insert_observers_impl": edited(
    "15-06", "insert_observers_impl",
    ("    gm = fx.symbolic_trace(model)\n", "    gm = fx.symbolic_trace(copy.deepcopy(model).eval())\n"))}
