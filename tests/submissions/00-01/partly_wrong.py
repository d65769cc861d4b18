"""Realistic mistakes in three tasks: windows forgets the storage offset of x (windows of x[2:] start at x's base), uint8 with int8 is promoted to the wider of the two by size (int8) instead of int16, and OpLogger keeps its list and dict as class attributes, so every logger shares them and a new one is not empty."""
from course.grading.class_run.submissions import edited

EXPECT = {'view_meta': 'pass', 'windows': 'fail', 'reshape_view': 'pass', 'result_dtype': 'fail', 'stale_nodes': 'pass', 'op_logger': 'fail'}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    'windows_impl': edited("00-01", "windows_impl",
    ('                        x.storage_offset())\n',
     '                        0)\n')),
    'result_dtype_impl': edited("00-01", "result_dtype_impl",
    ('            return torch.int16 if other == torch.int8 else other\n',
     '            return other\n')),
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
