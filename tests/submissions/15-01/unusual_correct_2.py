"""A second correct solution, structured differently from the reference and from unusual_correct.py:
every task must keep full marks.

- ScaledMul: reduction by summing the broadcast dimensions with one sum(dim=..., keepdim=True) and a reshape;
- StableSoftplus: two-branch torch.where forward, torch.special.expit backward;
- LogCosh: |x| + F.softplus(-2|x|) - log 2 (softplus of a non-positive argument is exact);
- Clamp: bounds kept on ctx, the kink mask recomputed in backward from (x - lo) > 0 and (hi - x) > 0 (round 24:
  it was (x - lo) * (hi - x) > 0, whose product underflows to 0 inside a narrow interval near 0, such as
  Clamp.apply(x, 0.0, 1e-200), and passed no gradient there);
- capture_activations: model.get_submodule, its AttributeError turned into KeyError;
- attach_grad_clipping: a branch-free tensor factor, torch.where(norm > max_norm, max_norm / norm, 1) (round 18:
  it was clamp(max_norm / norm, max=1), which is 0 / 0 = nan for max_norm = 0 and an all-zero gradient);
- run_broken through an indexed assignment, run_fixed through torch.autograd.backward.
"""
EXPECT = {t: "pass" for t in ["scaled_mul", "softplus", "logcosh", "clamp", "forward_hooks", "grad_hooks", "inplace"]}
CELLS = {
    "scaled_mul_impl": '''
def _sum_to(g, shape):
    lead = g.dim() - len(shape)
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1)
    return (g.sum(dim=dims, keepdim=True) if dims else g).reshape(shape)


class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha
        return x * y * alpha

    @staticmethod
    def backward(ctx, grad_out):
        x, y = ctx.saved_tensors
        go = grad_out * ctx.alpha
        grads = [None, None, None]
        for i, (mine, other) in enumerate(((x, y), (y, x))):
            if ctx.needs_input_grad[i]:
                grads[i] = _sum_to(go * other, mine.shape)
        return tuple(grads)
''',
    "softplus_impl": '''
class StableSoftplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        pos = x + torch.log1p(torch.exp(-x))
        neg = torch.log1p(torch.exp(x))
        return torch.where(x > 0, pos, neg)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return torch.special.expit(x) * grad_out
''',
    "logcosh_impl": '''
class LogCosh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x.abs()
        return a + F.softplus(-2 * a) - math.log(2)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return torch.tanh(x).mul(grad_out)
''',
    "clamp_impl": '''
from torch.autograd.function import once_differentiable


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.bounds = (lo, hi)
        return x.clamp(min=lo).clamp(max=hi)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        # two differences, each compared with 0 (exact: x - lo is 0 only where x == lo); their product would
        # underflow to 0 for a narrow interval near 0 (round 24: Clamp.apply(x, 0.0, 1e-200))
        inside = ((x - lo) > 0) & ((hi - x) > 0)
        return grad_out.masked_fill(~inside, 0.0), None, None  # not grad_out * mask: inf * 0 is NaN
''',
    "capture_impl": '''
def capture_activations(model, names, x):
    targets = []
    for n in names:
        try:
            targets.append((n, model.get_submodule(n)))
        except AttributeError:
            raise KeyError(n) from None
    seen = {}
    handles = []
    try:
        for n, mod in targets:
            def record(module, args, output, _n=n):
                seen[_n] = output.detach()
            handles.append(mod.register_forward_hook(record))
        model(x)
    finally:
        while handles:
            handles.pop().remove()
    return seen
''',
    "grad_clip_impl": '''
def attach_grad_clipping(model, max_norm):
    def hook(p):
        norm = torch.linalg.vector_norm(p.grad)
        p.grad.mul_(torch.where(norm > max_norm, max_norm / norm, 1.0))

    return [p.register_post_accumulate_grad_hook(hook) for p in model.parameters() if p.requires_grad]
''',
    "inplace_impl": '''
def run_broken(x):
    y = torch.exp(x)
    y[...] = y + 1
    y.sum().backward()


def run_fixed(x):
    y = torch.add(torch.exp(x), 1)
    torch.autograd.backward(y.sum())
    return x.grad
''',
}
