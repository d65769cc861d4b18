"""stale_nodes: only reads _saved_self, _saved_other and _saved_result (the names seen in the demo). Breaks 'a node is stale when reading one of its _saved_... attributes raises' for nodes that save under other names: AddcmulBackward0 keeps its factors as _saved_tensor1/_saved_tensor2 (and MmBackward0 its right factor as _saved_mat2), so a write to one of them goes unseen. Caught by the named case addcmul(x, c, x) with c written afterwards."""
EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'fail', 'op_logger': 'pass'}
BASE = "reference"

CELLS = {
    'stale_nodes_impl': '''
def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    root = out.grad_fn
    if root is None:
        return []
    seen, todo, names = set(), [root], []
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        for attr in ("_saved_self", "_saved_other", "_saved_result"):
            try:
                getattr(node, attr)
            except AttributeError:
                continue
            except RuntimeError:
                names.append(type(node).__name__)
                break
        for nxt, _ in node.next_functions:
            if nxt is not None:
                todo.append(nxt)
    return sorted(names)
''',
}
