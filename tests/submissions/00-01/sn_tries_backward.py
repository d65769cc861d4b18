"""stale_nodes: finds out whether backward fails by running it (retain_graph=True) and then reports the output's
own node only; the run fills x.grad and misses stale nodes further down. Breaks 'only inspect: do not run
backward' and 'visit every node reachable from out.grad_fn'."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "fail"}
CELLS = {
    "stale_nodes_impl": '''
def stale_nodes(out):
    if out.grad_fn is None:
        return []
    try:
        out.sum().backward(retain_graph=True)
    except RuntimeError:
        return [type(out.grad_fn).__name__]
    return []
''',
}
