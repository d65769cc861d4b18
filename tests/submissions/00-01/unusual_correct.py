"""Correct, written differently: view matched left to right by splitting and merging (size, stride) pairs, slices
through Python's own slice.indices, windows with torch.as_strided as a function and strides from a list, and
result_dtype from rank tables instead of nested rules; OpLogger with a table of formula functions that read
the output's shape (and, for convolution_backward, which gradients came back instead of output_mask) and a
collections.Counter for the totals."""
EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass", "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {
    "view_meta_impl": '''
def _norm(d, n):
    if d < -n or d >= n:
        raise IndexError("dim out of range")
    return d + n if d < 0 else d


def view_meta(shape, stride, offset, op, args):
    dims = [[s, st] for s, st in zip(shape, stride)]
    n = len(dims)
    if op == "transpose":
        a, b = (_norm(d, max(n, 1)) for d in args)  # a 0-dim header names dimension 0 (or -1)
        if n:
            dims[a], dims[b] = dims[b], dims[a]
    elif op == "select":
        d = _norm(args[0], n)
        size, st = dims.pop(d)
        if not -size <= args[1] < size:
            raise IndexError("index out of range")
        offset += (args[1] + size if args[1] < 0 else args[1]) * st
    elif op == "slice":
        d = _norm(args[0], n)
        size, st = dims[d]
        start, stop, step = slice(args[1], args[2], args[3]).indices(size)
        dims[d] = [len(range(start, stop, step)), st * step]
        offset += start * st
    elif op == "expand":
        sizes = list(args[0])
        if len(sizes) < n:
            raise RuntimeError("too few sizes")
        dims = [[None, 0]] * (len(sizes) - n) + dims
        out = []
        for want, (have, st) in zip(sizes, dims):
            if have is None:
                if want == -1:
                    raise RuntimeError("-1 in a new dimension")
                out.append([want, 0])
            elif want in (-1, have):
                out.append([have, st])
            elif have != 1:
                raise RuntimeError("cannot expand")
            else:
                out.append([want, 0])
        dims = out
    elif op == "view":
        total = 1
        for s, _ in dims:
            total *= s
        new = list(args[0])
        free = [k for k, s in enumerate(new) if s == -1]
        if len(free) > 1:
            raise RuntimeError("two -1")
        rest = 1
        for s in new:
            if s != -1:
                rest *= s
        if free:
            if rest == 0 or total % rest != 0:
                raise RuntimeError("cannot infer")
            new[free[0]] = total // rest
            rest = total
        if rest != total:
            raise RuntimeError("wrong number of elements")
        if total == 0:
            return tuple(new), tuple([1] * len(new)), offset
        queue = [[s, st] for s, st in dims if s != 1]
        strides = []
        for m in new:
            if m == 1:
                strides.append(1)
                continue
            while queue[0][0] % m != 0:
                if len(queue) < 2 or queue[0][1] != queue[1][0] * queue[1][1]:
                    raise RuntimeError("view size is not compatible with input tensor's size and stride")
                queue[0:2] = [[queue[0][0] * queue[1][0], queue[1][1]]]
            s, st = queue[0]
            strides.append(st * (s // m))
            queue[0] = [s // m, st]
            if s // m == 1:
                queue.pop(0)
        return tuple(new), tuple(strides), offset
    else:
        raise ValueError(op)
    return tuple(s for s, _ in dims), tuple(st for _, st in dims), offset
''',
    "windows_impl": '''
def windows(x, size, step):
    if x.ndim < 1 or min(size, step) < 1:
        raise ValueError("windows: need x.ndim >= 1, size >= 1 and step >= 1")
    n = len(range(0, x.size(-1) - size + 1, step))
    sizes = list(x.size())
    strides = list(x.stride())
    sizes[-1:] = [n, size]
    strides[-1:] = [strides[-1] * step, strides[-1]]
    return torch.as_strided(x, sizes, strides, x.storage_offset())
''',
    "result_dtype_impl": '''
_ORDER = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64, torch.complex64, torch.complex128]
_KIND = {dt: (0 if i == 0 else 1 if i < 6 else 2 if i < 10 else 3) for i, dt in enumerate(_ORDER)}
_SPECIAL = {frozenset([torch.uint8, torch.int8]): torch.int16, frozenset([torch.float16, torch.bfloat16]): torch.float32,
            frozenset([torch.float64, torch.complex64]): torch.complex128}


def _join(a, b):
    if frozenset([a, b]) in _SPECIAL:
        return _SPECIAL[frozenset([a, b])]
    if _KIND[a] != _KIND[b]:
        return a if _KIND[a] > _KIND[b] else b
    if torch.uint8 in (a, b) and a != b:
        return b if a == torch.uint8 else a
    return max(a, b, key=_ORDER.index)


def result_dtype(a, b):
    def tier_and_dtype(v):
        if isinstance(v, torch.Tensor):
            return (0 if v.ndim else 1), v.dtype
        if isinstance(v, bool):
            return 2, torch.bool
        if isinstance(v, int):
            return 2, torch.int64
        d = torch.get_default_dtype()
        if isinstance(v, float):
            return 2, d
        return 2, torch.complex128 if d == torch.float64 else torch.complex64
    found = sorted([tier_and_dtype(a), tier_and_dtype(b)], key=lambda p: p[0])
    if found[0][0] == found[1][0]:
        return _join(found[0][1], found[1][1])
    top, low = found[0][1], found[1][1]
    if _KIND[low] <= _KIND[top]:
        return top
    if _KIND[top] == 2 and _KIND[low] == 3:
        return torch.complex128 if top == torch.float64 else torch.complex64
    return low
''',
    "op_logger_impl": '''
import collections


def _matmul_cost(args, out):
    inner = args[-1].shape[-2]          # k: the rows of the right-hand matrix
    return 2 * out.numel() * inner      # each output element is k multiply-adds


def _conv_cost(args, out):
    weight = args[1]
    per_output = 1
    for size in weight.shape[1:]:
        per_output *= size              # C_in/groups times the kernel
    return 2 * out.numel() * per_output


def _conv_backward_cost(args, out):
    grad_out, inp, weight = args[0], args[1], args[2]
    total = 0
    if out[0] is not None:              # grad_input came back: as costly as the forward
        total += _conv_cost((inp, weight), grad_out)
    if out[1] is not None:              # grad_weight: FlopCounterMode counts the full input channels
        kernel = 1
        for size in weight.shape[2:]:
            kernel *= size
        total += 2 * grad_out.numel() * inp.shape[1] * kernel
    return total


_COSTS = {"mm": _matmul_cost, "addmm": _matmul_cost, "bmm": _matmul_cost, "baddbmm": _matmul_cost,
          "convolution": _conv_cost, "convolution_backward": _conv_backward_cost}


class OpLogger(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops, self.flops = [], collections.Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops += [f"{func.namespace}.{func._opname}.{func._overloadname}"]
        result = func(*args, **(kwargs or {}))
        cost = _COSTS.get(func._opname) if func.namespace == "aten" else None
        if cost is not None:
            self.flops["aten." + func._opname] += cost(args, result)
        return result
''',
}
