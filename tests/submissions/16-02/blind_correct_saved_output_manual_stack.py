"""Correct, written unusually (blind round): SiLU saves its input and its output and uses f' = s + y (1 - s)
(x s = y); dual_jvp enters and exits the level by hand in try/finally; jacobian counts elements with
math.prod of the shapes; hvp is forward over reverse with vjp (not grad) inside jvp; per_sample_grads maps over
a tuple of trainable tensors by argnums and leaves the buffers to the model; ensemble_forward stacks the
parameters and buffers itself with torch.stack and runs models[0] itself as the function (functional_call
puts its own tensors back)."""
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {
    "silu_impl": '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return torch.mul(torch.sigmoid(x), x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)
        ctx.save_for_forward(inputs[0], output)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        s = torch.sigmoid(x)
        return g * (s + y * (1 - s))

    @staticmethod
    def jvp(ctx, t):
        x, y = ctx.saved_tensors
        s = torch.sigmoid(x)
        return t * (s + y * (1 - s))
''',
    "dual_jvp_impl": '''
def dual_jvp(f, primals, tangents):
    level = fwAD.enter_dual_level()
    try:
        y = f(*[fwAD.make_dual(p, t, level=level) for p, t in zip(primals, tangents)])
        p, t = fwAD.unpack_dual(y, level=level)
        p = p.clone()
        t = torch.zeros(p.shape, dtype=p.dtype, device=p.device) if t is None else t.clone()
    finally:
        fwAD.exit_dual_level(level=level)
    return p, t
''',
    "jacobian_impl": '''
import math


def jacobian(f, x):
    if math.prod(x.shape) < math.prod(f(x).shape):
        return torch.func.jacfwd(f, argnums=0)(x)
    return torch.func.jacrev(f, argnums=0)(x)
''',
    "hvp_impl": '''
def hvp(f, x, v):
    def gradient(z):
        out, pullback = vjp(f, z)
        return pullback(torch.ones_like(out))[0]

    return jvp(gradient, (x,), (v,))[1]
''',
    "per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    names = tuple(n for n, p in model.named_parameters() if p.requires_grad)
    tensors = tuple(dict(model.named_parameters())[n].detach() for n in names)

    def loss(ts, xi, yi):
        return loss_fn(functional_call(model, dict(zip(names, ts)), (xi.reshape(1, *xi.shape),)),
                       yi.reshape(1, *yi.shape))

    grads = vmap(grad(loss, argnums=0), in_dims=(None, 0, 0))(tensors, x, y)
    return {n: g for n, g in zip(names, grads)}
''',
    "ensemble_impl": '''
def ensemble_forward(models, x, per_model=False):
    states = [dict(list(m.named_parameters()) + list(m.named_buffers())) for m in models]
    stacked = {k: torch.stack([s[k].detach() for s in states]) for k in states[0]}

    def call(state, xb):
        return functional_call(models[0], state, (xb,))

    return vmap(call, in_dims=(0, 0 if per_model else None))(stacked, x)
''',
}
