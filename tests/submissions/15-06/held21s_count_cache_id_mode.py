"""Held-out round 21, second pass: count_ops memoises its counts by (id(model), model.training), so a model whose
submodule was replaced after a first count gets that first count again; the text says each call traces model "as it
is at that call (its mode, its submodules)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "fail", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"count_ops_impl": edited(
    "15-06", "count_ops_impl",
    ("    gm = fx.symbolic_trace(model)\n    return dict(Counter(node.op for node in gm.graph.nodes))\n",
     "    cache = count_ops.__dict__.setdefault(\"cache\", {})\n"
     "    key = (id(model), model.training)\n"
     "    if key not in cache:\n"
     "        gm = fx.symbolic_trace(model)\n"
     "        cache[key] = dict(Counter(node.op for node in gm.graph.nodes))\n"
     "    return dict(cache[key])\n"))}
