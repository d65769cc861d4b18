"""windows: stacks slices of x into a new tensor: the right values and shape, but a copy with fresh strides, not a view of x."""
EXPECT = {'view_meta': 'pass', 'windows': 'fail', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {
    'windows_impl': '''

def windows(x, size, step):
    if x.dim() == 0:
        raise ValueError("need at least one dimension")
    if size < 1 or step < 1:
        raise ValueError("size and step must be at least 1")
    starts = range(0, x.shape[-1] - size + 1, step)
    if len(starts) == 0:
        return x.new_empty(tuple(x.shape[:-1]) + (0, size))
    return torch.stack([x[..., s:s + size] for s in starts], dim=-2)
''',
}
