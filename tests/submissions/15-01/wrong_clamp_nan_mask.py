"""Clamp: backward mask written as ~((x <= lo) | (x >= hi)), which is True for NaN entries and passes their gradient through; torch.clamp passes none there. Breaks 'matching torch.clamp in gradient' (the mask is lo < x < hi)."""
EXPECT = {'scaled_mul': 'pass', 'softplus': 'pass', 'logcosh': 'pass', 'clamp': 'fail', 'forward_hooks': 'pass', 'grad_hooks': 'pass', 'inplace': 'pass'}

CELLS = {
    'clamp_impl': '''
from torch.autograd.function import once_differentiable


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        outside = (x <= ctx.lo) | (x >= ctx.hi)
        return grad_out.masked_fill(outside, 0.0), None, None
''',
}
