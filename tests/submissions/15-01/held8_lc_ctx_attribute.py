"""Wrong (held-out round 8): keeps the input as ctx.x = x instead of ctx.save_for_backward(x), so an in-place change
to x after forward goes unnoticed and backward silently returns tanh of the changed values ("Write backward with
torch operations on the saved input"; section 1: saved tensors are checked on use, attributes are not)."""
EXPECT = {'logcosh': 'fail'}
CELLS = {"logcosh_impl": '''
class LogCosh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x.abs() + torch.log1p(torch.exp(-2 * x.abs())) - math.log(2.0)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out * torch.tanh(ctx.x)
'''}
