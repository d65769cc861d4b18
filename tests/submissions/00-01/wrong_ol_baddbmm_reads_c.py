"""OpLogger: baddbmm shares the bmm branch and reads its factors from args[0] and args[1], i.e. the added c and the first factor. The count is right only when c has the full (B, m, n) shape; with a broadcast c it is wrong or crashes. Breaks 'baddbmm(c, a, b) counts as the bmm of a and b'. Same idea as ol_addmm_reads_bias, for baddbmm; caught by test_matmul_ops's broadcast added tensors (shape (n,), (m, n) or (m, 1))."""
EXPECT = {'view_meta': 'pass', 'windows': 'pass', 'reshape_view': 'pass', 'result_dtype': 'pass', 'stale_nodes': 'pass', 'op_logger': 'fail'}
BASE = "reference"

CELLS = {
    'op_logger_impl': '''
def _prod(xs):
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

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.ops.append(str(func))
        out = func(*args, **kwargs)
        packet = str(func.overloadpacket)
        f = None
        if packet == "aten.mm":
            a, b = args[0], args[1]
            f = 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif packet == "aten.addmm":
            a, b = args[1], args[2]
            f = 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif packet in ("aten.bmm", "aten.baddbmm"):
            a, b = args[0], args[1]
            f = 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
        elif packet == "aten.convolution":
            x, w = args[0], args[1]
            f = 2 * x.shape[0] * _prod(out.shape[2:]) * _prod(w.shape)
        elif packet == "aten.convolution_backward":
            g, x, w = args[0], args[1], args[2]
            mask = args[10] if len(args) > 10 else kwargs["output_mask"]
            f = 0
            if mask[0]:
                f += 2 * x.shape[0] * _prod(g.shape[2:]) * _prod(w.shape)
            if mask[1]:
                f += 2 * x.shape[0] * x.shape[1] * w.shape[0] * _prod(g.shape[2:]) * _prod(w.shape[2:])
        if f is not None:
            self.flops[packet] = self.flops.get(packet, 0) + int(f)
        return out
''',
}
