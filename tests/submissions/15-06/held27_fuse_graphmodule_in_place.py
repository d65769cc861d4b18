"""Held-out round 27: fuse_conv_bn skips the copy and the trace when `model` is already an `fx.GraphModule`
("it is traced already") and folds into it directly. The result is computed correctly, but for a GraphModule
input (e.g. `fuse_conv_bn(fx.symbolic_trace(net))`, or fusing the output of insert_observers) it breaks "Do not
modify `model`." and "returning a **new** `fx.GraphModule`": the caller's GraphModule loses its BatchNorm nodes,
its convs are replaced, and the function returns the very object it was given."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("    gm = fx.symbolic_trace(copy.deepcopy(model))\n",
     "    gm = model if isinstance(model, fx.GraphModule) else fx.symbolic_trace(copy.deepcopy(model))\n"))}
