"""Wrong (held-out round 2): backward multiplies grad_out by the 0/1 mask, so an infinite or NaN incoming
gradient outside (lo, hi) gives NaN where torch.clamp passes 0, e.g. log(Clamp(x, 0, 1)) at x <= 0
("matching torch.clamp(x, lo, hi) in value and in gradient")."""
EXPECT = {'clamp': 'fail'}
CELLS = {"clamp_impl": '''
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
        inside = (x > ctx.lo) & (x < ctx.hi)
        return grad_out * inside.to(grad_out.dtype), None, None
'''}
