"""windows: computes the strides as if x were contiguous (from its shape) instead of reading x.stride(); right for the demo's fresh tensor, wrong for a transposed or sliced x."""
EXPECT = {'view_meta': 'pass', 'windows': 'fail', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {
    'windows_impl': '''
def windows(x, size, step):
    """Windows of `size` elements every `step` elements along x's last dimension, as a view of x."""
    if x.dim() == 0:
        raise ValueError("windows needs a tensor with at least one dimension")
    if size < 1 or step < 1:
        raise ValueError(f"size and step must be at least 1, got size={size}, step={step}")
    length, st = x.shape[-1], 1
    count = max(0, (length - size) // step + 1)
    lead = [math.prod(x.shape[k + 1:]) for k in range(x.dim() - 1)]
    return x.as_strided(tuple(x.shape[:-1]) + (count, size), tuple(lead) + (step * st, st),
                        x.storage_offset())
''',
}
