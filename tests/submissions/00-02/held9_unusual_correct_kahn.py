"""Held-out round 9, correct: graph_nodes is a breadth-first walk with a dict as an ordered set; topo_order
is Kahn's algorithm (count each node's distinct feeders, emit a node once all of them are out), and the
engine's sub is a + (-b) with neg as a multiplication by -1 and relu as torch.where."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "pass", "checkpoint": "pass"}
CELLS = {"graph_impl": '''
from collections import deque


def graph_nodes(t):
    """Every autograd node reachable from t.grad_fn, each once."""
    if t.grad_fn is None:
        return []
    found = {t.grad_fn: None}
    queue = deque([t.grad_fn])
    while queue:
        for nxt, _ in queue.popleft().next_functions:
            if nxt is not None and nxt not in found:
                found[nxt] = None
                queue.append(nxt)
    return list(found)


def topo_order(t):
    """The nodes of graph_nodes(t), each before the nodes it feeds gradient to."""
    nodes = graph_nodes(t)
    feeders = {n: 0 for n in nodes}
    for n in nodes:
        for m in {m for m, _ in n.next_functions if m is not None}:
            feeders[m] += 1
    ready = deque(n for n in nodes if feeders[n] == 0)
    out = []
    while ready:
        n = ready.popleft()
        out.append(n)
        for m in {m for m, _ in n.next_functions if m is not None}:
            feeders[m] -= 1
            if feeders[m] == 0:
                ready.append(m)
    return out
''', "engine_impl": edited(
    "00-02", "engine_impl",
    ("return Value(a - b, (self,    other), lambda g: (self._unbroadcast(g, a), self._unbroadcast(-g, b)))".replace("    ", " "),
     "return self + (-other)"),
    ("return Value(-self.data, (self,), lambda g: (-g,))",
     "return Value(self.data * -1, (self,), lambda g: (g * -1,))"),
    ("return Value(a.clamp(min=0), (self,), lambda g: (g * (a > 0).to(g.dtype),))",
     "return Value(torch.where(a > 0, a, torch.zeros_like(a)).where(~a.isnan(), a), (self,),\n"
     "                     lambda g: (torch.where(a > 0, g, torch.zeros_like(g)),))"))}
