"""Clamp: when nothing needs clamping (or x is empty) forward returns x itself, so the result shares storage with the input. Breaks 'matching torch.clamp(x, lo, hi)' (a new tensor)."""
EXPECT = {'scaled_mul': 'pass', 'softplus': 'pass', 'logcosh': 'pass', 'clamp': 'fail', 'forward_hooks': 'pass', 'grad_hooks': 'pass', 'inplace': 'pass'}

CELLS = {
    'clamp_impl': '''
from torch.autograd.function import once_differentiable


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        if x.numel() == 0 or (x.min() > lo and x.max() < hi):
            return x
        return x.clamp(lo, hi)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        inside = (x > ctx.lo) & (x < ctx.hi)
        return grad_out * inside, None, None
''',
}
