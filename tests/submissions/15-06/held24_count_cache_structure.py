"""Held-out round 24: count_ops memoises its counts under a key built from the model's identity, its train/eval
mode and the identity and mode of each submodule, so it re-traces after .train()/.eval() or after a submodule is
swapped, but not when a plain Python attribute that forward reads changes (here a flag or a loop count). It
breaks "Each call traces `model` as it is at that call (its mode, its submodules): keep nothing from an earlier
call.": the same model counted, then its `self.extra = True` flag set (forward then calls one more module),
counted again, gives the first count twice."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "fail", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"count_ops_impl": edited(
    "15-06", "count_ops_impl",
    ("    gm = fx.symbolic_trace(model)\n    return dict(Counter(node.op for node in gm.graph.nodes))\n",
     "    key = (id(model), model.training,\n"
     "           tuple((name, id(m), m.training) for name, m in model.named_modules()))\n"
     "    cache = count_ops.__dict__.setdefault('_cache', {})\n"
     "    if key not in cache:  # tracing is slow: only re-trace when the mode or a submodule changed\n"
     "        gm = fx.symbolic_trace(model)\n"
     "        cache[key] = dict(Counter(node.op for node in gm.graph.nodes))\n"
     "    return dict(cache[key])\n"))}
