"""Correct, written differently (held-out round 2): ScaledMul keeping alpha on ctx and sum_to_size per needed
input; softplus through clamp(min=0); Clamp's backward through torch.where; capture validating every name
before registering; clipping with torch.linalg.vector_norm; run_broken with y += 1."""
EXPECT = {'scaled_mul': 'pass', 'softplus': 'pass', 'logcosh': 'pass', 'clamp': 'pass', 'forward_hooks': 'pass', 'grad_hooks': 'pass', 'inplace': 'pass'}
CELLS = {"softplus_impl": '''
class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0) + torch.log1p(torch.exp(-x.abs()))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * torch.sigmoid(x)
''', "scaled_mul_impl": '''
class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.alpha = alpha
        ctx.save_for_backward(x, y)
        return alpha * x * y

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        need_x, need_y, _ = ctx.needs_input_grad
        gx = (grad_out * y * ctx.alpha).sum_to_size(x.shape) if need_x else None
        gy = (grad_out * x * ctx.alpha).sum_to_size(y.shape) if need_y else None
        return gx, gy, None
''', "clamp_impl": '''
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
        return torch.where(inside, grad_out, torch.zeros_like(grad_out)), None, None
''', "capture_impl": '''
def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    modules = dict(model.named_modules())
    missing = [n for n in names if n not in modules]
    if missing:
        raise KeyError(f"no submodule named {missing[0]!r}")
    acts, handles = {}, []

    def hook_for(name):
        def hook(module, inputs, output):
            acts[name] = output.detach()
        return hook

    try:
        for name in names:
            handles.append(modules[name].register_forward_hook(hook_for(name)))
        model(x)
    finally:
        for h in handles:
            h.remove()
    return {n: acts[n] for n in names if n in acts}
''', "grad_clip_impl": '''
def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:
    def clip(p):
        norm = torch.linalg.vector_norm(p.grad)
        if norm > max_norm:
            p.grad.mul_(max_norm / norm)

    return [p.register_post_accumulate_grad_hook(clip) for p in model.parameters() if p.requires_grad]
''', "inplace_impl": '''
def run_broken(x: torch.Tensor) -> None:
    y = torch.exp(x)
    y += 1
    y.sum().backward()


def run_fixed(x: torch.Tensor) -> torch.Tensor:
    y = torch.exp(x) + 1
    y.sum().backward()
    return x.grad
''', "logcosh_impl": '''
class LogCosh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x.abs()
        return a + torch.log1p(torch.exp(-2 * a)) - math.log(2.0)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * torch.tanh(x)
'''}
