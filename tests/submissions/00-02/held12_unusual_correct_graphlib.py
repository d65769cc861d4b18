"""Round 12 (held out), correct but unusual: graph_nodes and topo_order from one edge map and
graphlib.TopologicalSorter; a - b as a + (-b); evaluate's restore and no-graph mode on an ExitStack."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {
    "graph_impl": '''from graphlib import TopologicalSorter


def _edges(t):
    """{node: the nodes of its inputs} for every node behind t, with an explicit stack."""
    if t.grad_fn is None:
        return {}
    edges, todo = {}, [t.grad_fn]
    while todo:
        node = todo.pop()
        if node in edges:
            continue
        edges[node] = [n for n, _ in node.next_functions if n is not None]
        todo.extend(n for n in edges[node] if n not in edges)
    return edges


def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    return list(_edges(t))


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    sorter = TopologicalSorter()
    for node, inputs in _edges(t).items():
        sorter.add(node)
        for m in inputs:
            sorter.add(m, node)  # m comes after node: node feeds gradient to m
    return list(sorter.static_order())
''',
    "engine_impl": edited("00-02", "engine_impl", (
        "        a, b = self.data, other.data\n"
        "        return Value(a - b, (self, other), lambda g: (self._unbroadcast(g, a), self._unbroadcast(-g, b)))\n",
        "        return self + (-other)\n")),
    "evaluate_impl": '''def evaluate(model, x, keep_for_autograd=False):
    """model(x) in eval mode, with no graph; see the exercise for which mode."""
    saved = [(m, m.training) for m in model.modules()]
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: [setattr(m, "training", mode) for m, mode in saved])
        stack.enter_context(torch.no_grad() if keep_for_autograd else torch.inference_mode())
        model.eval()
        return model(x)
''',
}
