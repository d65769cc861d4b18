"""Correct, written differently (held-out round 3): windows through torch.as_strided with keyword
arguments and the count from len(range(...)); stale_nodes breadth first with a deque, nodes kept in a
dict by id (which holds each node, so no id is reused), a node's staleness from any() over its attributes."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"windows_impl": '''
def windows(x, size, step):
    """Windows of `size` elements every `step` elements along x's last dimension, as a view of x."""
    if x.ndim < 1:
        raise ValueError("x must have a dimension")
    if min(size, step) < 1:
        raise ValueError("size and step must be >= 1")
    n = len(range(0, x.size(-1) - size + 1, step))
    shape = [*x.shape[:-1], n, size]
    strides = [*x.stride()[:-1], x.stride(-1) * step, x.stride(-1)]
    return torch.as_strided(x, size=shape, stride=strides, storage_offset=x.storage_offset())
''', "stale_nodes_impl": '''
from collections import deque


def _is_stale(node):
    def raises(name):
        try:
            getattr(node, name)
        except RuntimeError:
            return True
        return False
    return any(raises(n) for n in dir(node) if n.startswith("_saved_"))


def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    if out.grad_fn is None:
        return []
    queue, seen, names = deque([out.grad_fn]), {id(out.grad_fn): out.grad_fn}, []
    while queue:
        node = queue.popleft()
        if _is_stale(node):
            names.append(type(node).__name__)
        for nxt, _ in node.next_functions:
            if nxt is not None and id(nxt) not in seen:
                seen[id(nxt)] = nxt
                queue.append(nxt)
    return sorted(names)
'''}
