"""view_meta: expand grows a size-1 dimension but keeps its old stride instead of 0, so the copies would walk into neighbouring memory. Breaks 'expand gives size-1 dimensions stride 0'."""
EXPECT = {'view_meta': 'fail', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass'}
CELLS = {
    'view_meta_impl': '''
def view_meta(shape, stride, offset, op, args):
    """The (shape, stride, offset) after one view op, from integer arithmetic alone."""
    shape, stride, offset = list(shape), list(stride), int(offset)
    n = len(shape)

    def wrap(d):
        if not -n <= d < n:
            raise IndexError(f"dimension {d} is out of range for a {n}-dim tensor")
        return d % n

    if op == "transpose":
        d0, d1 = wrap(args[0]), wrap(args[1])
        shape[d0], shape[d1] = shape[d1], shape[d0]
        stride[d0], stride[d1] = stride[d1], stride[d0]
    elif op == "select":
        d, i = wrap(args[0]), args[1]
        if not -shape[d] <= i < shape[d]:
            raise IndexError(f"index {i} is out of range for a dimension of size {shape[d]}")
        offset += (i % shape[d]) * stride[d]
        del shape[d], stride[d]
    elif op == "slice":
        d, start, stop, step = wrap(args[0]), args[1], args[2], args[3]
        size = shape[d]
        start = 0 if start is None else start + size if start < 0 else start
        stop = size if stop is None else stop + size if stop < 0 else stop
        start = min(max(start, 0), size)
        stop = min(max(stop, start), size)
        offset += start * stride[d]
        shape[d] = (stop - start + step - 1) // step
        stride[d] *= step
    elif op == "expand":
        sizes = list(args[0])
        extra = len(sizes) - n
        if extra < 0:
            raise RuntimeError("expand: fewer sizes than dimensions")
        new_shape, new_stride = [], []
        for k, want in enumerate(sizes):
            if k < extra:
                if want < 0:
                    raise RuntimeError("expand: -1 is not allowed in a new leading dimension")
                new_shape.append(want)
                new_stride.append(0)
                continue
            have, st = shape[k - extra], stride[k - extra]
            if want == -1 or want == have:
                new_shape.append(have)
                new_stride.append(st)
            elif have == 1:
                new_shape.append(want)
                new_stride.append(st)
            else:
                raise RuntimeError(f"expand: a dimension of size {have} cannot become {want}")
        shape, stride = new_shape, new_stride
    elif op == "view":
        numel = math.prod(shape)
        new = list(args[0])
        if new.count(-1) > 1:
            raise RuntimeError("view: only one dimension can be -1")
        if -1 in new:
            known = math.prod(s for s in new if s != -1)
            if known == 0 or numel % known:
                raise RuntimeError(f"view: shape {tuple(args[0])} is invalid for {numel} elements")
            new[new.index(-1)] = numel // known
        if math.prod(new) != numel:
            raise RuntimeError(f"view: shape {tuple(args[0])} is invalid for {numel} elements")
        out = [1] * len(new)
        if numel == 0:  # no element is ever reached: any strides will do
            return tuple(new), tuple(out), offset
        # blocks of old dimensions that walk memory evenly; size-1 dimensions never matter
        blocks = []  # (number of elements, stride of the block's innermost dimension)
        for size, st in zip(shape, stride):
            if size == 1:
                continue
            if blocks and blocks[-1][1] == st * size:
                blocks[-1] = (blocks[-1][0] * size, st)
            else:
                blocks.append((size, st))
        k = len(new) - 1
        for elems, base in reversed(blocks):
            run = 1
            while k >= 0 and (run < elems or new[k] == 1):
                out[k] = run * base
                run *= new[k]
                k -= 1
            if run != elems:
                raise RuntimeError("view size is not compatible with input tensor's size and stride")
        shape, stride = new, out
    else:
        raise ValueError(f"unknown op {op!r}")
    return tuple(shape), tuple(stride), offset
''',
}
