"""Correct, written differently: reshape_is_view with no block walk at all. It lists the storage position of
every element of the old layout in row-major order and answers True exactly when those positions are an affine
function of the new multi-index (one stride per new dimension, taken from the first step along it, then every
element checked). The earlier unusual-correct examples all merge runs of evenly spaced dimensions."""
EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass',
          'stale_nodes': 'pass', 'op_logger': 'pass'}
CELLS = {"reshape_view_impl": '''def reshape_is_view(shape, stride, new_shape):
    """Whether reshape to new_shape can return a view of a tensor with this shape and stride."""
    positions = [0]
    for size, st in zip(shape, stride):
        positions = [p + i * st for p in positions for i in range(size)]
    total = len(positions)
    new_shape = list(new_shape)
    if -1 in new_shape:
        known = 1
        for s in new_shape:
            if s != -1:
                known *= s
        new_shape[new_shape.index(-1)] = total // known if known else 0
    if total <= 1:
        return True
    # the flat step of one move along each new dimension, and the storage jump it makes from element 0
    steps, acc = [], 1
    for s in reversed(new_shape):
        steps.append(acc)
        acc *= s
    steps.reverse()
    jumps = [positions[k] - positions[0] if s > 1 else 0 for s, k in zip(new_shape, steps)]
    for flat in range(total):
        rest, expect = flat, positions[0]
        for s, k, j in zip(new_shape, steps, jumps):
            expect += (rest // k) * j
            rest %= k
        if positions[flat] != expect:
            return False
    return True
'''}
