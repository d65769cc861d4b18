"""Correct answers written differently from the reference: every task must pass."""
EXPECT = {t: "pass" for t in ["scaled_mul", "softplus", "logcosh", "clamp", "forward_hooks", "grad_hooks", "inplace"]}
CELLS = {
    "scaled_mul_impl": '''
def _reduce_to(g, shape):
    # sum leading dims, then dims that were broadcast from size 1
    while g.dim() > len(shape):
        g = g.sum(0)
    for d, s in enumerate(shape):
        if s == 1 and g.shape[d] != 1:
            g = g.sum(d, keepdim=True)
    return g

class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.alpha = float(alpha)
        ctx.save_for_backward(x, y)
        return torch.mul(x, y).mul(alpha)

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        need_x, need_y, _ = ctx.needs_input_grad
        scaled = grad_out.mul(ctx.alpha)
        return (_reduce_to(scaled * y, x.shape) if need_x else None,
                _reduce_to(scaled * x, y.shape) if need_y else None,
                None)
''',
    "softplus_impl": '''
class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.logaddexp(x, torch.zeros_like(x))

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        s = torch.where(x >= 0, 1 / (1 + torch.exp(-x.abs())), torch.exp(-x.abs()) / (1 + torch.exp(-x.abs())))
        return grad_out * s
''',
    "logcosh_impl": '''
class LogCosh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.logaddexp(x, -x) - math.log(2)

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * (1 - 2 / (torch.exp(2 * x.clamp(-300, 300)) + 1))
''',
    "clamp_impl": '''
from torch.autograd.function import once_differentiable

class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.lo, ctx.hi = lo, hi
        ctx.save_for_backward(x)
        return torch.where(x < lo, torch.full_like(x, lo), torch.where(x > hi, torch.full_like(x, hi), x))

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        inside = torch.logical_and(x > ctx.lo, x < ctx.hi)
        return torch.where(inside, grad_out, torch.zeros_like(grad_out)), None, None
''',
    "capture_impl": '''
import contextlib

def capture_activations(model, names, x):
    lookup = {n: m for n, m in model.named_modules()}
    for n in names:
        if n not in lookup:
            raise KeyError(n)
    out = {}
    with contextlib.ExitStack() as stack:
        for n in names:
            h = lookup[n].register_forward_hook(lambda mod, inp, o, key=n: out.update({key: o.detach().clone()}))
            stack.callback(h.remove)
        with torch.no_grad():
            model(x)
    return out
''',
    "grad_clip_impl": '''
def attach_grad_clipping(model, max_norm):
    handles = []
    for p in model.parameters():
        if not p.requires_grad:
            continue
        def hook(t):  # not clip_grad_norm_([t], max_norm): it divides by norm + 1e-6 (tenfold off at norm 1e-7)
            norm = torch.linalg.vector_norm(t.grad)
            if norm > max_norm:
                t.grad.mul_(max_norm / norm)  # in place; a hook must return None
        handles.append(p.register_post_accumulate_grad_hook(hook))
    return handles
''',
    "inplace_impl": '''
def run_broken(x):
    y = x.exp()
    y += 1
    y.sum().backward()


def run_fixed(x):
    y = x.exp().clone()
    y += 1
    y.sum().backward()
    return x.grad
''',
}
