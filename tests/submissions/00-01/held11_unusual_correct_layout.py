"""Held-out round 11, correct: view_meta dispatches on a dict of small functions, infers a view's strides
with a port of PyTorch's own computeStride (one pass over the old dimensions, chunk by chunk, rather than
the reference's list of merged blocks) and gives a zero-element view contiguous strides; windows calls
as_strided without a storage offset (None keeps x's own) and counts windows as len(range(...)); reshape_is_view
asks that view_meta."""

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"view_meta_impl": '''
def _dim(d, n):
    lo, hi = (-1, 0) if n == 0 else (-n, n - 1)
    if not lo <= d <= hi:
        raise IndexError(f"dimension {d} out of range [{lo}, {hi}]")
    return d + n if d < 0 else d


def _transpose(shape, stride, offset, d0, d1):
    if not shape:
        _dim(d0, 0), _dim(d1, 0)
        return shape, stride, offset
    n = len(shape)
    d0, d1 = _dim(d0, n), _dim(d1, n)
    shape[d0], shape[d1], stride[d0], stride[d1] = shape[d1], shape[d0], stride[d1], stride[d0]
    return shape, stride, offset


def _select(shape, stride, offset, d, index):
    if not shape:
        raise IndexError("select() cannot be applied to a 0-dim tensor")
    d = _dim(d, len(shape))
    size = shape[d]
    if index < -size or index >= size:
        raise IndexError(f"index {index} out of range for size {size}")
    if index < 0:
        index += size
    offset += index * stride[d]
    return shape[:d] + shape[d + 1:], stride[:d] + stride[d + 1:], offset


def _slice(shape, stride, offset, d, start, stop, step):
    if not shape:
        raise IndexError("slice() cannot be applied to a 0-dim tensor")
    d = _dim(d, len(shape))
    start, stop, _ = slice(start, stop, step).indices(shape[d])
    count = len(range(start, stop, step))
    offset += start * stride[d] if count else min(start, shape[d]) * stride[d]
    shape[d] = count
    stride[d] *= step
    return shape, stride, offset


def _expand(shape, stride, offset, sizes):
    sizes = list(sizes)
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError("expand: the number of sizes must be at least the number of dimensions")
    if any(s < 0 for s in sizes[:lead]):
        raise RuntimeError("expand: -1 is not allowed in a new leading dimension")
    out_shape, out_stride = sizes[:lead], [0] * lead
    for want, have, st in zip(sizes[lead:], shape, stride):
        if want == -1 or want == have:
            out_shape.append(have)
            out_stride.append(st)
        elif have == 1:
            out_shape.append(want)
            out_stride.append(0)
        else:
            raise RuntimeError(f"expand: size {have} cannot become {want}")
    return out_shape, out_stride, offset


def _compute_stride(old, old_stride, new):
    """PyTorch's computeStride: strides for `new` over old's memory, or None."""
    if not old:
        return [1] * len(new)
    view_d = len(new) - 1
    out = [0] * len(new)
    base = old_stride[-1]
    t_numel = v_numel = 1
    for t_d in range(len(old) - 1, -1, -1):
        t_numel *= old[t_d]
        if t_d == 0 or (old[t_d - 1] != 1 and old_stride[t_d - 1] != t_numel * base):
            while view_d >= 0 and (v_numel < t_numel or new[view_d] == 1):
                out[view_d] = v_numel * base
                v_numel *= new[view_d]
                view_d -= 1
            if v_numel != t_numel:
                return None
            if t_d > 0:
                base = old_stride[t_d - 1]
                t_numel = v_numel = 1
    return out if view_d == -1 else None


def _view(shape, stride, offset, new_shape):
    numel = 1
    for s in shape:
        numel *= s
    new = list(new_shape)
    holes = [k for k, s in enumerate(new) if s == -1]
    known = 1
    for s in new:
        if s != -1:
            known *= s
    if len(holes) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if holes:
        if known == 0 or numel % known != 0:
            raise RuntimeError(f"shape {tuple(new_shape)} is invalid for input of size {numel}")
        new[holes[0]] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape {tuple(new_shape)} is invalid for input of size {numel}")
    if numel == 0:
        out, acc = [0] * len(new), 1
        for k in range(len(new) - 1, -1, -1):
            out[k] = acc
            acc *= max(new[k], 1)
        return new, out, offset
    out = _compute_stride(shape, stride, new)
    if out is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride")
    return new, out, offset


_OPS = {"transpose": _transpose, "select": _select, "slice": _slice, "expand": _expand, "view": _view}


def view_meta(shape, stride, offset, op, args):
    """The (shape, stride, offset) after one view op, from integer arithmetic alone."""
    shape, stride, offset = _OPS[op](list(shape), list(stride), int(offset), *args)
    return tuple(int(s) for s in shape), tuple(int(s) for s in stride), int(offset)
''', "windows_impl": '''
def windows(x, size, step):
    """Windows of `size` elements every `step` elements along x's last dimension, as a view of x."""
    if not x.dim():
        raise ValueError("windows: x must have at least one dimension")
    if min(size, step) < 1:
        raise ValueError(f"windows: size and step must be >= 1 (size={size}, step={step})")
    count = len(range(0, x.shape[-1] - size + 1, step))
    inner = x.stride(-1)
    return x.as_strided((*x.shape[:-1], count, size), (*x.stride()[:-1], inner * step, inner))
''', "reshape_view_impl": '''
def reshape_is_view(shape, stride, new_shape):
    """Whether reshape to new_shape can return a view of a tensor with this shape and stride."""
    try:
        view_meta(tuple(shape), tuple(stride), 0, "view", (tuple(new_shape),))
        return True
    except RuntimeError:
        return False
'''}
