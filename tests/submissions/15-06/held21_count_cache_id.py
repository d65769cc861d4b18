"""Held-out round 21: count_ops memoises its counts by id(model), so a model changed after a first count
(put in eval mode, a module replaced) or a new model that reuses a freed one's id gets stale counts; the text says
count_ops traces `model` (the model as it is given) and counts its graph's nodes."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "fail", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"count_ops_impl": edited(
    "15-06", "count_ops_impl",
    ("    gm = fx.symbolic_trace(model)\n    return dict(Counter(node.op for node in gm.graph.nodes))\n",
     "    cache = count_ops.__dict__.setdefault(\"cache\", {})\n"
     "    if id(model) not in cache:\n"
     "        gm = fx.symbolic_trace(model)\n"
     "        cache[id(model)] = dict(Counter(node.op for node in gm.graph.nodes))\n"
     "    return dict(cache[id(model)])\n"))}
