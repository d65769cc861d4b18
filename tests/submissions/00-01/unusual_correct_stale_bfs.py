"""Correct, written differently: stale_nodes walks the graph breadth first with collections.deque, remembers visited nodes in a dict keyed by id() (the dict keeps the node objects alive, so an id is never reused during the walk) and decides staleness only after the walk, node by node."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "pass", "op_logger": "pass"}
BASE = "reference"

CELLS = {
    "stale_nodes_impl": '''

import collections


def _is_stale(node):
    for name in dir(node):
        if not name.startswith("_saved_"):
            continue
        try:
            getattr(node, name)
        except RuntimeError:
            return True
    return False


def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    visited = {}
    queue = collections.deque([out.grad_fn])
    while queue:
        node = queue.popleft()
        if node is None or id(node) in visited:
            continue
        visited[id(node)] = node
        queue.extend(child for child, _ in node.next_functions)
    return sorted(type(n).__name__ for n in visited.values() if _is_stale(n))
''',
}
