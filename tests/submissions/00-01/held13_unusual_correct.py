"""Held-out round 13: a correct answer to every task, written unusually. view_meta ports ATen's computeStride
(walking old dimensions from the back in chunks), takes a slice's bounds from Python's slice.indices and
expands from the right; windows counts with len(range(...)) and calls torch.as_strided with the offset
spelled out; reshape_is_view asks view_meta; result_dtype reads the tier from .ndim and promotes through a
(kind, bits) table; stale_nodes walks breadth-first with a deque; OpLogger counts from the shapes of what
each call returned, through a table of rules, and tells the convolution_backward parts by which gradients
came back."""

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}

CELLS = {
    "view_meta_impl": '''
def view_meta(shape, stride, offset, op, args):
    shape, stride, offset = [int(s) for s in shape], [int(s) for s in stride], int(offset)
    n = len(shape)

    def norm(d):
        lo, hi = (-1, 0) if n == 0 else (-n, n - 1)
        if d < lo or d > hi:
            raise IndexError(f"dim {d} out of range for {n} dims")
        return d + max(n, 1) if d < 0 else d

    if op == "transpose":
        d0, d1 = norm(args[0]), norm(args[1])
        if n:
            shape[d0], shape[d1] = shape[d1], shape[d0]
            stride[d0], stride[d1] = stride[d1], stride[d0]
        return tuple(shape), tuple(stride), offset
    if op in ("select", "slice") and n == 0:
        raise IndexError(f"{op} needs at least one dimension")
    if op == "select":
        d, i = norm(args[0]), args[1]
        i = i + shape[d] if i < 0 else i
        if i < 0 or i >= shape[d]:
            raise IndexError(f"index {args[1]} out of range for size {shape[d]}")
        offset += i * stride.pop(d)
        shape.pop(d)
        return tuple(shape), tuple(stride), offset
    if op == "slice":
        d = norm(args[0])
        start, stop, step = slice(args[1], args[2], args[3]).indices(shape[d])
        offset += start * stride[d]
        shape[d] = len(range(start, stop, step))
        stride[d] *= step
        return tuple(shape), tuple(stride), offset
    if op == "expand":
        sizes = list(args[0])
        if len(sizes) < n:
            raise RuntimeError("expand: the number of sizes must be at least the number of dimensions")
        out_shape, out_stride = [0] * len(sizes), [0] * len(sizes)
        for i in range(1, len(sizes) + 1):
            want = sizes[-i]
            if i > n:
                if want < 0:
                    raise RuntimeError("expand: -1 in a new leading dimension")
                out_shape[-i], out_stride[-i] = want, 0
                continue
            have, st = shape[-i], stride[-i]
            if want == -1:
                want = have
            if want == have:
                out_shape[-i], out_stride[-i] = have, st
            elif have == 1:
                out_shape[-i], out_stride[-i] = want, 0
            else:
                raise RuntimeError(f"expand: size {have} cannot become {want}")
        return tuple(out_shape), tuple(out_stride), offset
    if op == "view":
        new = list(args[0])
        numel = 1
        for s in shape:
            numel *= s
        holes = [k for k, s in enumerate(new) if s == -1]
        if len(holes) > 1:
            raise RuntimeError("only one dimension can be inferred")
        known = 1
        for s in new:
            if s != -1:
                known *= s
        if holes:
            if known == 0 or numel % known:
                raise RuntimeError(f"shape {tuple(new)} is invalid for input of size {numel}")
            new[holes[0]] = numel // known
        elif known != numel:
            raise RuntimeError(f"shape {tuple(new)} is invalid for input of size {numel}")
        if numel == 0 or n == 0:
            return tuple(new), (1,) * len(new), offset
        new_stride = [0] * len(new)
        view_d = len(new) - 1
        base = stride[-1]
        tensor_numel = view_numel = 1
        for tensor_d in range(n - 1, -1, -1):
            tensor_numel *= shape[tensor_d]
            if tensor_d == 0 or (shape[tensor_d - 1] != 1 and stride[tensor_d - 1] != tensor_numel * base):
                while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                    new_stride[view_d] = view_numel * base
                    view_numel *= new[view_d]
                    view_d -= 1
                if view_numel != tensor_numel:
                    raise RuntimeError("view size is not compatible with input tensor's size and stride")
                if tensor_d > 0:
                    base = stride[tensor_d - 1]
                    tensor_numel = view_numel = 1
        if view_d != -1:
            raise RuntimeError("view size is not compatible with input tensor's size and stride")
        return tuple(new), tuple(new_stride), offset
    raise ValueError(f"unknown op {op!r}")
''',
    "windows_impl": '''
def windows(x, size, step):
    if not x.dim():
        raise ValueError("windows: x must have at least one dimension")
    if min(size, step) < 1:
        raise ValueError("windows: size and step must be >= 1")
    count = len(range(0, x.shape[-1] - size + 1, step))
    *outer, last = x.stride()
    return torch.as_strided(x, (*x.shape[:-1], count, size), (*outer, last * step, last),
                            storage_offset=x.storage_offset())
''',
    "result_dtype_impl": '''
_KINDS = {torch.bool: (0, "b", 1), torch.uint8: (1, "u", 8), torch.int8: (1, "i", 8),
          torch.int16: (1, "i", 16), torch.int32: (1, "i", 32), torch.int64: (1, "i", 64),
          torch.float16: (2, "h", 16), torch.bfloat16: (2, "bf", 16), torch.float32: (2, "f", 32),
          torch.float64: (2, "f", 64), torch.complex64: (3, "c", 64), torch.complex128: (3, "c", 128)}
_COMPLEX = {torch.float32: torch.complex64, torch.float64: torch.complex128}


def _both(x, y):
    (cx, kx, bx), (cy, ky, by) = _KINDS[x], _KINDS[y]
    if x == y:
        return x
    if cx != cy:
        hi, lo = (x, y) if cx > cy else (y, x)
        return torch.complex128 if (hi, lo) == (torch.complex64, torch.float64) else hi
    if {kx, ky} == {"u", "i"} and min(bx, by) == 8 and max(bx, by) == 8:
        return torch.int16
    if {kx, ky} == {"h", "bf"}:
        return torch.float32
    return x if bx > by else y


def result_dtype(a, b):
    levels = {}
    for v in (a, b):
        if isinstance(v, torch.Tensor):
            tier, dt = (2 if v.ndim > 0 else 1), v.dtype
        elif isinstance(v, bool):
            tier, dt = 0, torch.bool
        elif isinstance(v, int):
            tier, dt = 0, torch.int64
        elif isinstance(v, float):
            tier, dt = 0, torch.get_default_dtype()
        elif isinstance(v, complex):
            tier, dt = 0, _COMPLEX[torch.get_default_dtype()]
        else:
            raise TypeError(type(v).__name__)
        levels[tier] = _both(levels[tier], dt) if tier in levels else dt
    result = None
    for tier in sorted(levels, reverse=True):
        dt = levels[tier]
        if result is None:
            result = dt
        elif _KINDS[dt][0] > _KINDS[result][0]:
            result = _COMPLEX[result] if _KINDS[result][0] == 2 and _KINDS[dt][0] == 3 else dt
    return result
''',
    "stale_nodes_impl": '''
def stale_nodes(out):
    from collections import deque

    def broken(node):
        for attr in dir(node):
            if not attr.startswith("_saved_"):
                continue
            try:
                getattr(node, attr)
            except RuntimeError:
                return True
        return False

    if out.grad_fn is None:
        return []
    queue, visited, names = deque([out.grad_fn]), {out.grad_fn}, []
    while queue:
        node = queue.popleft()
        if broken(node):
            names.append(type(node).__name__)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in visited:
                visited.add(nxt)
                queue.append(nxt)
    names.sort()
    return names
''',
    "op_logger_impl": '''
def _mm_flops(args, out):
    return 2 * out.numel() * args[0].shape[1]


def _addmm_flops(args, out):
    return 2 * out.numel() * args[1].shape[1]


def _bmm_flops(args, out):
    return 2 * out.numel() * args[0].shape[2]


def _baddbmm_flops(args, out):
    return 2 * out.numel() * args[1].shape[2]


def _conv_flops(args, out):
    return 2 * out.shape[0] * math.prod(out.shape[2:]) * args[1].numel()


def _conv_bwd_flops(args, out):
    grad_out, x, w = args[0], args[1], args[2]
    spatial = math.prod(grad_out.shape[2:])
    total = 0
    if out[0] is not None:
        total += 2 * x.shape[0] * spatial * w.numel()
    if out[1] is not None:
        total += 2 * x.shape[0] * x.shape[1] * w.shape[0] * spatial * math.prod(w.shape[2:])
    return total


_RULES = {"aten.mm": _mm_flops, "aten.addmm": _addmm_flops, "aten.bmm": _bmm_flops,
          "aten.baddbmm": _baddbmm_flops, "aten.convolution": _conv_flops,
          "aten.convolution_backward": _conv_bwd_flops}


class OpLogger(TorchDispatchMode):
    """Logs aten overloads in call order and counts matmul and convolution FLOPs per packet."""

    def __init__(self):
        super().__init__()
        self.ops, self.flops = [], {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        result = func(*args, **(kwargs or {}))
        packet = str(func.overloadpacket)
        rule = _RULES.get(packet)
        if rule is not None:
            self.flops[packet] = self.flops.get(packet, 0) + rule(args, result)
        return result
''',
}
