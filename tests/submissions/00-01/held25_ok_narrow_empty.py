"""Round 25, correct but unusual: windows builds its empty result (size larger than the last dimension) from
x.narrow(-1, 0, 0).unsqueeze(-1).expand(..., 0, size), a view of x with the asked shape but strides other than
as_strided's (the text asks only for the shape there); stale_nodes walks the graph breadth-first with a deque
and an id-keyed dict that keeps every visited node alive, and tests each node with any() over its attributes."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {
    "windows_impl": edited("00-01", "windows_impl", (
        '''    count = max(0, (length - size) // step + 1)''',
        '''    if size > length:
        return x.narrow(-1, 0, 0).unsqueeze(-1).expand(*x.shape[:-1], 0, size)
    count = (length - size) // step + 1''')),
    "stale_nodes_impl": '''def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    ### BEGIN SOLUTION
    from collections import deque

    def unreadable(node, attr):
        try:
            getattr(node, attr)
        except RuntimeError:
            return True
        return False

    seen = {}
    queue = deque([out.grad_fn] if out.grad_fn is not None else [])
    while queue:
        node = queue.popleft()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        queue.extend(n for n, _ in node.next_functions if n is not None and id(n) not in seen)
    return sorted(type(n).__name__ for n in seen.values()
                  if any(unreadable(n, a) for a in dir(n) if a.startswith("_saved_")))
    ### END SOLUTION
'''}
