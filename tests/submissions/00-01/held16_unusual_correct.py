"""Round 16 held-out, correct but written unusually: view_meta's view is a port of PyTorch's
computeStride (one pass from the last old dimension, chunks closed where the stride breaks) and the
other ops go through a dispatch table; windows counts with len(range(...)) and calls torch.as_strided
with keywords; stale_nodes walks breadth-first with a deque; OpLogger looks its FLOP formulas up in a
table of functions keyed by packet."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}

VIEW_META = '''def view_meta(shape, stride, offset, op, args):
    """The (shape, stride, offset) after one view op, from integer arithmetic alone."""
    shape, stride, n = tuple(int(s) for s in shape), tuple(int(s) for s in stride), len(shape)

    def dim(d, rank=n):
        if rank == 0 and d in (0, -1):
            return None
        if d < -rank or d >= rank:
            raise IndexError(f"dim {d} out of range for rank {rank}")
        return d + rank if d < 0 else d

    def do_transpose(d0, d1):
        a, b = dim(d0), dim(d1)
        if a is None:
            if b is not None:
                raise IndexError("bad dim")
            return shape, stride, offset
        if b is None:
            raise IndexError("bad dim")
        sh, st = list(shape), list(stride)
        sh[a], sh[b], st[a], st[b] = sh[b], sh[a], st[b], st[a]
        return tuple(sh), tuple(st), offset

    def do_select(d, i):
        if n == 0:
            raise IndexError("select on a 0-dim tensor")
        d = dim(d)
        if i < -shape[d] or i >= shape[d]:
            raise IndexError("index out of range")
        i = i + shape[d] if i < 0 else i
        return shape[:d] + shape[d + 1:], stride[:d] + stride[d + 1:], offset + i * stride[d]

    def do_slice(d, start, stop, step):
        if n == 0:
            raise IndexError("slice on a 0-dim tensor")
        d = dim(d)
        lo, hi, _ = slice(start, stop, 1).indices(shape[d])
        count = len(range(lo, max(lo, hi), step))
        return (shape[:d] + (count,) + shape[d + 1:], stride[:d] + (stride[d] * step,) + stride[d + 1:],
                offset + lo * stride[d])

    def do_expand(sizes):
        sizes = tuple(sizes)
        if len(sizes) < n:
            raise RuntimeError("expand: too few sizes")
        lead = len(sizes) - n
        if any(s < 0 for s in sizes[:lead]):
            raise RuntimeError("expand: -1 in a new dimension")
        out_sh, out_st = list(sizes[:lead]), [0] * lead
        for want, have, st in zip(sizes[lead:], shape, stride):
            if want in (-1, have):
                out_sh.append(have)
                out_st.append(st)
            elif have != 1:
                raise RuntimeError("expand: size mismatch")
            else:
                out_sh.append(want)
                out_st.append(0)
        return tuple(out_sh), tuple(out_st), offset

    def do_view(new_shape):
        numel = math.prod(shape)
        new = list(new_shape)
        holes = [k for k, s in enumerate(new) if s == -1]
        if len(holes) > 1:
            raise RuntimeError("only one -1")
        if holes:
            rest = math.prod(s for s in new if s != -1)
            if rest == 0 or numel % rest:
                raise RuntimeError("cannot infer -1")
            new[holes[0]] = numel // rest
        if math.prod(new) != numel:
            raise RuntimeError("shape mismatch")
        if not shape or numel == 0:
            return tuple(new), (1,) * len(new), offset
        out = [0] * len(new)
        view_d = len(new) - 1
        base = stride[-1]
        tensor_numel = view_numel = 1
        for tensor_d in range(n - 1, -1, -1):
            tensor_numel *= shape[tensor_d]
            if tensor_d == 0 or (shape[tensor_d - 1] != 1 and stride[tensor_d - 1] != tensor_numel * base):
                while view_d >= 0 and (view_numel < tensor_numel or new[view_d] == 1):
                    out[view_d] = view_numel * base
                    view_numel *= new[view_d]
                    view_d -= 1
                if view_numel != tensor_numel:
                    raise RuntimeError("view size is not compatible with input tensor's size and stride")
                if tensor_d > 0:
                    base = stride[tensor_d - 1]
                    tensor_numel = view_numel = 1
        if view_d != -1:
            raise RuntimeError("view size is not compatible with input tensor's size and stride")
        return tuple(new), tuple(out), offset

    table = {"transpose": do_transpose, "select": do_select, "slice": do_slice, "expand": do_expand,
             "view": do_view}
    if op not in table:
        raise ValueError(op)
    return table[op](*args)
'''

WINDOWS = '''def windows(x, size, step):
    """Windows of `size` elements every `step` elements along x's last dimension, as a view of x."""
    if not x.shape:
        raise ValueError("0-dim")
    if min(size, step) < 1:
        raise ValueError("size and step must be positive")
    count = len(range(0, x.shape[-1] - size + 1, step))
    return torch.as_strided(x, size=(*x.shape[:-1], count, size),
                            stride=(*x.stride()[:-1], x.stride()[-1] * step, x.stride()[-1]),
                            storage_offset=x.storage_offset())
'''

STALE = '''def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    from collections import deque

    def broken(node):
        for name in (a for a in dir(node) if a.startswith("_saved_")):
            try:
                getattr(node, name)
            except RuntimeError:
                return True
        return False

    if out.grad_fn is None:
        return []
    found, queue, seen = [], deque([out.grad_fn]), {out.grad_fn}
    while queue:
        node = queue.popleft()
        if broken(node):
            found.append(type(node).__name__)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return sorted(found)
'''

LOGGER = '''class OpLogger(TorchDispatchMode):
    """Logs aten overloads in call order and counts matmul and convolution FLOPs per packet."""

    def __init__(self):
        super().__init__()
        self.ops = []
        self.flops = {}

    @staticmethod
    def _conv_bwd(args, out):
        g, x, w, mask = args[0], args[1], args[2], args[10]
        sp = math.prod(g.shape[2:])
        return (2 * x.shape[0] * sp * w.numel() if mask[0] else 0) + \\
            (2 * x.shape[0] * x.shape[1] * w.shape[0] * sp * math.prod(w.shape[2:]) if mask[1] else 0)

    _FORMULAS = {
        "aten.mm": lambda args, out: 2 * args[0].shape[0] * args[0].shape[1] * args[1].shape[1],
        "aten.addmm": lambda args, out: 2 * args[1].shape[0] * args[1].shape[1] * args[2].shape[1],
        "aten.bmm": lambda args, out: 2 * math.prod(args[0].shape) * args[1].shape[2],
        "aten.baddbmm": lambda args, out: 2 * math.prod(args[1].shape) * args[2].shape[2],
        "aten.convolution": lambda args, out: 2 * args[0].shape[0] * math.prod(out.shape[2:]) * args[1].numel(),
    }

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(func.__str__())
        result = func(*args, **(kwargs if kwargs else {}))
        key = str(func.overloadpacket)
        if key == "aten.convolution_backward":
            extra = self._conv_bwd(args, result)
        elif key in self._FORMULAS:
            extra = self._FORMULAS[key](args, result)
        else:
            return result
        self.flops[key] = self.flops.get(key, 0) + extra
        return result
'''

CELLS = {"view_meta_impl": VIEW_META, "windows_impl": WINDOWS, "stale_nodes_impl": STALE,
         "op_logger_impl": LOGGER}
