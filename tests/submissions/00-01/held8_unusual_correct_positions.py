"""Correct, written differently (held-out round 8): reshape_is_view lists the storage position of every
element in row-major order, reads candidate strides for the new shape off those positions (the distance from
element 0 to the element one step along each new dimension) and accepts exactly when those strides reproduce
every position. Zero-size tensors are views; size-1 dimensions take stride 1."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"reshape_view_impl": '''
def reshape_is_view(shape, stride, new_shape):
    import itertools
    total = math.prod(shape)
    if total == 0:
        return True
    new = list(new_shape)
    if -1 in new:
        new[new.index(-1)] = total // math.prod(s for s in new if s != -1)
    pos = [sum(i * s for i, s in zip(idx, stride)) for idx in itertools.product(*(range(n) for n in shape))]
    cand, step = [], 1
    for n in reversed(new):
        cand.append(pos[step] - pos[0] if n > 1 else 1)
        step *= n
    cand.reverse()
    return all(p - pos[0] == sum(i * s for i, s in zip(idx, cand))
               for p, idx in zip(pos, itertools.product(*(range(n) for n in new))))
'''}
