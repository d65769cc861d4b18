"""Held-out round 11, correct: result_dtype reads each dtype's own properties (is_complex, is_floating_point,
itemsize, to_complex()) and a tensor's ndim instead of a hand-made table; stale_nodes walks the graph
recursively with a set of visited nodes and counts stale nodes with any(); OpLogger dispatches the FLOP
formulas through a dict of small functions and reads the product sizes from the output."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"result_dtype_impl": '''
def _category(dt):
    if dt.is_complex:
        return 3
    if dt.is_floating_point:
        return 2
    return 0 if dt == torch.bool else 1


def _promote(x, y):
    if x == y:
        return x
    cx, cy = _category(x), _category(y)
    if cx != cy:
        hi, lo = (x, y) if cx > cy else (y, x)
        if hi.is_complex and lo == torch.float64:
            return torch.complex128
        return hi
    if cx == 1 and torch.uint8 in (x, y):
        other = x if y == torch.uint8 else y
        return torch.int16 if other == torch.int8 else other
    if {x, y} == {torch.float16, torch.bfloat16}:
        return torch.float32
    return max(x, y, key=lambda d: d.itemsize)


def _operand(v):
    """(tier, dtype): 2 for tensors with dimensions, 1 for 0-dim tensors, 0 for Python numbers."""
    if isinstance(v, torch.Tensor):
        return (2 if v.ndim else 1), v.dtype
    if isinstance(v, bool):
        return 0, torch.bool
    if isinstance(v, int):
        return 0, torch.int64
    if isinstance(v, float):
        return 0, torch.get_default_dtype()
    return 0, torch.get_default_dtype().to_complex()


def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    (ta, da), (tb, db) = _operand(a), _operand(b)
    if ta == tb:
        return _promote(da, db)
    (_, high), (_, low) = sorted([(ta, da), (tb, db)], key=lambda p: -p[0])
    if _category(low) <= _category(high):
        return high
    if high.is_floating_point and low.is_complex:
        return high.to_complex()
    return low
''', "stale_nodes_impl": '''
def _has_stale_saved(node):
    for name in dir(node):
        if name.startswith("_saved_"):
            try:
                getattr(node, name)
            except RuntimeError:
                return True
    return False


def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    seen = set()

    def visit(node):
        if node is None or node in seen:
            return
        seen.add(node)
        for nxt, _ in node.next_functions:
            visit(nxt)

    visit(out.grad_fn)
    names = [type(n).__name__ for n in seen if _has_stale_saved(n)]
    names.sort()
    return names
''', "op_logger_impl": '''
def _mm(args, out):
    a, b = args[-2], args[-1]
    return 2 * out.shape[0] * out.shape[1] * a.shape[1]


def _bmm(args, out):
    a = args[0] if len(args) == 2 else args[1]
    return 2 * out.shape[0] * out.shape[1] * out.shape[2] * a.shape[2]


def _conv(args, out):
    return 2 * args[0].shape[0] * math.prod(out.shape[2:]) * math.prod(args[1].shape)


def _conv_backward(args, out):
    grad_out, x, w, mask = args[0], args[1], args[2], args[10]
    spatial = math.prod(grad_out.shape[2:])
    total = 2 * x.shape[0] * spatial * math.prod(w.shape) if mask[0] else 0
    if mask[1]:
        total += 2 * x.shape[0] * x.shape[1] * w.shape[0] * spatial * math.prod(w.shape[2:])
    return total


_FLOPS = {"aten.mm": _mm, "aten.addmm": _mm, "aten.bmm": _bmm, "aten.baddbmm": _bmm,
          "aten.convolution": _conv, "aten.convolution_backward": _conv_backward}


class OpLogger(TorchDispatchMode):
    """Logs aten overloads in call order and counts matmul and convolution FLOPs per packet."""

    def __init__(self):
        super().__init__()
        self.ops, self.flops = [], {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        result = func(*args, **(kwargs if kwargs is not None else {}))
        packet = str(func.overloadpacket)
        count = _FLOPS.get(packet)
        if count is not None:
            self.flops[packet] = self.flops.get(packet, 0) + count(args, result)
        return result
'''}
