"""Held-out round 27: count_ops keeps a cache keyed on the model's identity, the train/eval mode of every module
and the identity of every submodule, and returns the cached counts when that key repeats. That key follows the
two things the text names in parentheses, but it breaks "Each call traces `model` as it is at that call (its
mode, its submodules): keep nothing from an earlier call.": a model whose forward branches on a plain Python
attribute (a flag such as `self.use_skip`, no module and no mode) is counted, the flag is flipped, and it is
counted again; the second count must come from a new trace, the cached one is the old graph's."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "fail", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"count_ops_impl": edited(
    "15-06", "count_ops_impl",
    ("def count_ops(model: nn.Module) -> dict:\n",
     "_COUNT_CACHE = {}\n\n\ndef count_ops(model: nn.Module) -> dict:\n"),
    ("    gm = fx.symbolic_trace(model)\n    return dict(Counter(node.op for node in gm.graph.nodes))\n",
     "    key = (id(model), tuple((name, id(m), m.training) for name, m in model.named_modules()))\n"
     "    if key not in _COUNT_CACHE:\n"
     "        gm = fx.symbolic_trace(model)\n"
     "        _COUNT_CACHE[key] = dict(Counter(node.op for node in gm.graph.nodes))\n"
     "    return dict(_COUNT_CACHE[key])\n"))}
