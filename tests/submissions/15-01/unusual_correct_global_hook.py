"""Correct, from the fourth blind batch of issue #19 (2026-11-27): capture_activations through ONE global
forward hook (torch.nn.modules.module.register_module_forward_hook) that finds the requested modules by identity,
removed in finally, so no module ever holds a hook of its own. Also: StableSoftplus's forward through torch.where on
the sign of x, Clamp with the bounds on ctx and the mask from x.gt / x.lt via masked_fill, and run_fixed with an
out-of-place add. Every task must pass."""
EXPECT = {"scaled_mul": "pass", "softplus": "pass", "logcosh": "pass", "clamp": "pass", "forward_hooks": "pass",
          "grad_hooks": "pass", "inplace": "pass"}
BASE = "reference"
CELLS = {
    'softplus_impl': '''
class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        tail = torch.log1p(torch.exp(-x.abs()))
        return torch.where(x > 0, x + tail, tail)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * x.sigmoid()
''',
    'clamp_impl': '''
from torch.autograd.function import once_differentiable


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.bounds = (lo, hi)
        ctx.save_for_backward(x)
        return x.clamp(min=lo, max=hi)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        keep = torch.logical_and(x.gt(lo), x.lt(hi))
        return grad_out.masked_fill(~keep, 0), None, None
''',
    'capture_impl': '''
def capture_activations(model, names, x):
    by_name = dict(model.named_modules())
    for n in names:
        if n not in by_name:
            raise KeyError(n)
    wanted = {}
    for n in names:
        wanted.setdefault(id(by_name[n]), []).append(n)
    got = {}

    def spy(module, args, output):
        for n in wanted.get(id(module), ()):
            got[n] = output.detach()

    handle = torch.nn.modules.module.register_module_forward_hook(spy)
    try:
        model(x)
    finally:
        handle.remove()
    return got
''',
    'inplace_impl': '''
def run_broken(x):
    e = torch.exp(x)
    e.add_(1.0)
    torch.sum(e).backward()


def run_fixed(x):
    e = torch.exp(x)
    shifted = e.add(1.0)
    torch.sum(shifted).backward()
    return x.grad
''',
}
