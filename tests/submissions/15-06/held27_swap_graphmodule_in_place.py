"""Held-out round 27: swap_relu rewrites `model` itself when it is already an `fx.GraphModule` ("no need to
trace twice"), and traces only other modules. For a GraphModule input (the output of insert_observers or of
fuse_conv_bn, a typical chain of passes) the caller's GraphModule has its ReLUs replaced and the function returns
that same object. That breaks "Return a `GraphModule` that lints, is recompiled and runs; leave `model`
unchanged."."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("    gm = fx.symbolic_trace(model)\n",
     "    gm = model if isinstance(model, fx.GraphModule) else fx.symbolic_trace(model)\n"))}
