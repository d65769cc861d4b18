"""Clamp passes the gradient through at x == lo and x == hi, unlike torch.clamp."""
EXPECT = {"clamp": "fail", "scaled_mul": "pass", "softplus": "pass"}
CELLS = {"clamp_impl": '''
from torch.autograd.function import once_differentiable

class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward((x >= lo) & (x <= hi))
        return x.clamp(lo, hi)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (mask,) = ctx.saved_tensors
        return grad_out * mask, None, None
'''}
