"""Realistic mistakes in three tasks: windows forgets the storage offset of x (windows of x[2:] start at x's base), uint8 with int8 is promoted to the wider of the two by size (int8) instead of int16, and OpLogger keeps its list and dict as class attributes, so every logger shares them and a new one is not empty."""
EXPECT = {'view_meta': 'pass', 'windows': 'fail', 'reshape_view': 'pass', 'result_dtype': 'fail', 'stale_nodes': 'pass', 'op_logger': 'fail'}
CELLS = {
    'windows_impl': '''
def windows(x, size, step):
    """Windows of `size` elements every `step` elements along x's last dimension, as a view of x."""
    if x.dim() == 0:
        raise ValueError("windows needs a tensor with at least one dimension")
    if size < 1 or step < 1:
        raise ValueError(f"size and step must be at least 1, got size={size}, step={step}")
    length, st = x.shape[-1], x.stride(-1)
    count = max(0, (length - size) // step + 1)
    return x.as_strided(tuple(x.shape[:-1]) + (count, size), tuple(x.stride()[:-1]) + (step * st, st),
                        0)
''',
    'result_dtype_impl': '''
def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    ints = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
    floats = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
    complex_of = {torch.float32: torch.complex64, torch.float64: torch.complex128}

    def category(dt):
        if dt == torch.bool:
            return 0
        if dt in ints:
            return 1
        if dt in floats:
            return 2
        return 3

    def promote_two(x, y):  # step 1: the dtype that holds both
        if x == y:
            return x
        cx, cy = category(x), category(y)
        if cx != cy:
            hi, lo = (x, y) if cx > cy else (y, x)
            if category(hi) == 3 and lo == torch.float64:
                return torch.complex128
            return hi
        if cx == 1 and torch.uint8 in (x, y):
            other = y if x == torch.uint8 else x
            return other
        if {x, y} == {torch.float16, torch.bfloat16}:
            return torch.float32
        return x if x.itemsize > y.itemsize else y

    tiers = {2: [], 1: [], 0: []}
    for v in (a, b):
        if isinstance(v, torch.Tensor):
            tiers[2 if v.dim() else 1].append(v.dtype)
        elif isinstance(v, bool):
            tiers[0].append(torch.bool)
        elif isinstance(v, int):
            tiers[0].append(torch.int64)
        elif isinstance(v, float):
            tiers[0].append(torch.get_default_dtype())
        elif isinstance(v, complex):
            tiers[0].append(complex_of[torch.get_default_dtype()])
        else:
            raise TypeError(f"not a tensor or a Python number: {type(v).__name__}")
    result = None
    for tier in (2, 1, 0):
        if not tiers[tier]:
            continue
        here = tiers[tier][0] if len(tiers[tier]) == 1 else promote_two(*tiers[tier])
        if result is None:
            result = here
        elif category(here) > category(result):
            result = complex_of[result] if category(result) == 2 and category(here) == 3 else here
    return result
''',
    'op_logger_impl': '''
class OpLogger(TorchDispatchMode):
    ops = []
    flops = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.ops.append(str(func))
        key = str(func.overloadpacket)
        n = 0
        if key in ("aten.mm", "aten.addmm"):
            n = 2 * args[-2].shape[0] * args[-2].shape[1] * args[-1].shape[1]
        elif key in ("aten.bmm", "aten.baddbmm"):
            left, right = args[-2], args[-1]
            n = 2 * left.shape[0] * left.shape[1] * left.shape[2] * right.shape[2]
        elif key == "aten.convolution":
            n = 2 * args[0].shape[0] * math.prod(out.shape[2:]) * math.prod(args[1].shape)
        elif key == "aten.convolution_backward":
            g, x, w, mask = args[0], args[1], args[2], args[10]
            if mask[0]:
                n += 2 * x.shape[0] * math.prod(g.shape[2:]) * math.prod(w.shape)
            if mask[1]:
                n += 2 * x.shape[0] * x.shape[1] * w.shape[0] * math.prod(g.shape[2:]) * math.prod(w.shape[2:])
        else:
            return out
        self.flops[key] = self.flops.get(key, 0) + n
        return out
''',
}
