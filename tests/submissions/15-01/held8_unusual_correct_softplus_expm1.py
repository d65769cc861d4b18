"""Correct (held-out round 8), written differently: saves the output s = softplus(x) and computes the gradient as
-expm1(-s), which equals 1 - 1/(1 + e^x) = sigmoid(x) and keeps full relative accuracy (expm1) for very negative x."""
EXPECT = {'softplus': 'pass'}
CELLS = {"softplus_impl": '''
class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s = x.clamp(min=0) + torch.log1p(torch.exp(-x.abs()))
        ctx.save_for_backward(s)
        return s

    @staticmethod
    def backward(ctx, grad_out):
        (s,) = ctx.saved_tensors
        return grad_out * -torch.expm1(-s)
'''}
