"""windows: counts (length - size) // step windows, one too few (the last window that fits is lost)."""
EXPECT = {'view_meta': 'pass', 'windows': 'fail', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {
    'windows_impl': '''
def windows(x, size, step):
    """Windows of `size` elements every `step` elements along x's last dimension, as a view of x."""
    if x.dim() == 0:
        raise ValueError("windows needs a tensor with at least one dimension")
    if size < 1 or step < 1:
        raise ValueError(f"size and step must be at least 1, got size={size}, step={step}")
    length, st = x.shape[-1], x.stride(-1)
    count = max(0, (length - size) // step)
    return x.as_strided(tuple(x.shape[:-1]) + (count, size), tuple(x.stride()[:-1]) + (step * st, st),
                        x.storage_offset())
''',
}
