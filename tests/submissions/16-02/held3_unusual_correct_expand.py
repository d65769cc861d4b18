"""Held-out round 3, correct written differently: SiLU saves its output and writes f' = s + y (1 - s) with
y = x s; dual_jvp enters the level through contextlib.ExitStack; jacobian counts the output with math.prod
of its shape; hvp wraps grad(f) in a lambda; per_sample_grads differentiates every parameter, frozen ones too,
and keeps the trainable ones; ensemble_forward expands a shared batch to one per model."""
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {
    "silu_impl": '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)
        ctx.save_for_forward(inputs[0], output)

    @staticmethod
    def _slope(ctx):
        x, y = ctx.saved_tensors
        s = torch.sigmoid(x)
        return s + y * (1 - s)

    @staticmethod
    def backward(ctx, g):
        return g * SiLU._slope(ctx)

    @staticmethod
    def jvp(ctx, t):
        return SiLU._slope(ctx) * t
''',
    "dual_jvp_impl": '''
import contextlib


def dual_jvp(f, primals, tangents):
    with contextlib.ExitStack() as stack:
        stack.enter_context(fwAD.dual_level())
        y = f(*(fwAD.make_dual(p, t) for p, t in zip(primals, tangents)))
        primal, tangent = fwAD.unpack_dual(y)
        return primal, (torch.zeros_like(primal) if tangent is None else tangent)
''',
    "jacobian_impl": '''
import math


def jacobian(f, x):
    with torch.no_grad():
        shape = f(x).shape
    mode = jacfwd if x.numel() < math.prod(shape) else jacrev
    return mode(f)(x)
''',
    "hvp_impl": '''
def hvp(f, x, v):
    _, hv = jvp(lambda z: grad(f)(z), (x,), (v,))
    return hv
''',
    "per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    everything = {k: p.detach() for k, p in model.named_parameters()}
    buffers = {k: b.detach() for k, b in model.named_buffers()}
    keep = [k for k, p in model.named_parameters() if p.requires_grad]

    def loss_one(p, xi, yi):
        return loss_fn(functional_call(model, {**p, **buffers}, (xi[None],)), yi[None])

    grads = vmap(grad(loss_one), in_dims=(None, 0, 0))(everything, x, y)
    return {k: grads[k] for k in keep}
''',
    "ensemble_impl": '''
def ensemble_forward(models, x, per_model=False):
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")
    xs = x if per_model else x.expand(len(models), *x.shape)
    return vmap(lambda p, b, xb: functional_call(base, (p, b), (xb,)))(params, buffers, xs)
''',
}
