"""Realistic mistakes: gradients not reduced over broadcast dims, naive softplus, hooks never removed."""
EXPECT = {"scaled_mul": "fail", "softplus": "fail", "forward_hooks": "fail",
          "logcosh": "pass", "clamp": "pass", "grad_hooks": "pass", "inplace": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another
CELLS = {
    "scaled_mul_impl": '''
class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha
        return alpha * x * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        return grad_out * y * ctx.alpha, grad_out * x * ctx.alpha, None
''',
    "softplus_impl": '''
class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log(1 + torch.exp(x))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * torch.exp(x) / (1 + torch.exp(x))
''',
    "capture_impl": '''
def capture_activations(model, names, x):
    modules = dict(model.named_modules())
    captured = {}
    for n in names:
        modules[n].register_forward_hook(lambda m, i, o, n=n: captured.__setitem__(n, o.detach()))
    model(x)
    return captured
''',
}
