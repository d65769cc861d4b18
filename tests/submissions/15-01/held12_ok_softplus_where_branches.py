"""Unusual but correct: StableSoftplus picks between two branches with torch.where (x + log1p(exp(-x)) for
x > 0, log1p(exp(x)) otherwise; the unselected branch may overflow to inf but is never used) and its
backward uses torch.special.expit."""
EXPECT = {"softplus": "pass"}
CELLS = {"softplus_impl": '''class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        pos = x + torch.log1p(torch.exp(-x))
        neg = torch.log1p(torch.exp(x))
        return torch.where(x > 0, pos, neg)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * torch.special.expit(x)
'''}
