"""reshape_is_view: answers 'is the input contiguous', a common rule of thumb; a sliced or expanded input can often still be viewed, and PyTorch's reshape then returns a view."""
EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'fail', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {
    'reshape_view_impl': '''

def reshape_is_view(shape, stride, new_shape):
    want = 1
    for size, st in reversed(list(zip(shape, stride))):
        if size != 1 and st != want:
            return False
        want *= size
    return True
''',
}
