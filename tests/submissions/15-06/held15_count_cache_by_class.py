"""Held-out round 15: count_ops caches its result per model class (tracing is slow). A second model of the same
class that is built differently (an nn.Sequential of other layers, a FashionNet in training mode, a model whose
submodule was replaced) gets the first one's counts. Breaks: "symbolically trace model and return a dict mapping
each opcode that occurs in the graph ... to the number of nodes" (the graph of this model, every call)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "fail"}
CELLS = {"count_ops_impl": edited(
    "15-06", "count_ops_impl",
    ("    gm = fx.symbolic_trace(model)\n"
     "    return dict(Counter(node.op for node in gm.graph.nodes))\n",
     "    cache = count_ops.__dict__.setdefault(\"cache\", {})\n"
     "    if type(model) not in cache:  # tracing is slow: once per class\n"
     "        gm = fx.symbolic_trace(model)\n"
     "        cache[type(model)] = dict(Counter(node.op for node in gm.graph.nodes))\n"
     "    return dict(cache[type(model)])\n"))}
