"""Wrong (blind batch, issue #19, third round for 00-01, closed after it): adds to the dict only when the count is non-zero (`if n:`), so an mm with an empty dimension that ran gets no entry, while FlopCounterMode reports it with 0 ('must equal what FlopCounterMode reports').

Caught by test_matmul_ops, whose forward-only case has an empty inner dimension (k = 0).
"""
EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass', 'op_logger': 'fail'}

CELLS = {
    'op_logger_impl': '''
def _bind(func, args, kwargs):
    names = [a.name for a in func._schema.arguments]
    bound = dict(zip(names, args))
    bound.update(kwargs)
    return bound


def _prodi(xs):
    p = 1
    for v in xs:
        p *= int(v)
    return p


class OpLogger(TorchDispatchMode):
    """Logs aten overloads in call order and counts matmul and convolution FLOPs per packet."""

    def __init__(self):
        super().__init__()
        self.ops = []
        self.flops = {}

    def _count(self, packet, a, out):
        if packet == "aten.mm":
            m, k = a["self"].shape
            return 2 * m * k * a["mat2"].shape[1]
        if packet == "aten.addmm":
            m, k = a["mat1"].shape
            return 2 * m * k * a["mat2"].shape[1]
        if packet == "aten.bmm":
            bs, m, k = a["self"].shape
            return 2 * bs * m * k * a["mat2"].shape[2]
        if packet == "aten.baddbmm":
            bs, m, k = a["batch1"].shape
            return 2 * bs * m * k * a["batch2"].shape[2]
        if packet == "aten.convolution":
            return 2 * a["input"].shape[0] * _prodi(out.shape[2:]) * _prodi(a["weight"].shape)
        if packet == "aten.convolution_backward":
            go, x, w, mask = a["grad_output"], a["input"], a["weight"], a["output_mask"]
            n, spatial = x.shape[0], _prodi(go.shape[2:])
            total = 0
            if mask[0]:
                total += 2 * n * spatial * _prodi(w.shape)
            if mask[1]:
                total += 2 * n * x.shape[1] * w.shape[0] * spatial * _prodi(w.shape[2:])
            return total
        return None

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.ops.append(str(func))
        out = func(*args, **kwargs)
        packet = str(func.overloadpacket)
        n = self._count(packet, _bind(func, args, kwargs), out)
        if n:
            self.flops[packet] = self.flops.get(packet, 0) + int(n)
        return out
''',
}
