"""Correct, written unusually (blind round): SiLU in log space (s = exp(logsigmoid(x)), 1 - s =
exp(logsigmoid(-x))); dual_jvp with contextlib.ExitStack; jacobian measures the output under no_grad and
compares with >=; hvp flattens x and v and reshapes the product back; per_sample_grads uses grad_and_value and
reshape for the batch dimension; ensemble_forward builds its meta base with to_empty and moves the models'
dimension with out_dims."""
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {
    "silu_impl": '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * F.logsigmoid(x).exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def _fprime(x):
        s, one_minus_s = F.logsigmoid(x).exp(), F.logsigmoid(-x).exp()
        return s + x * s * one_minus_s

    @staticmethod
    def backward(ctx, g):
        return g * SiLU._fprime(ctx.saved_tensors[0])

    @staticmethod
    def jvp(ctx, t):
        return t * SiLU._fprime(ctx.saved_tensors[0])
''',
    "dual_jvp_impl": '''
import contextlib


def dual_jvp(f, primals, tangents):
    with contextlib.ExitStack() as stack:
        stack.enter_context(fwAD.dual_level())
        out = f(*map(fwAD.make_dual, primals, tangents))
        value, tan = fwAD.unpack_dual(out)
        value = value.clone()
        tan = torch.zeros_like(value) if tan is None else tan.clone()
    return value, tan
''',
    "jacobian_impl": '''
def jacobian(f, x):
    with torch.no_grad():
        m = f(x).numel()
    if x.numel() >= m:
        return jacrev(f)(x)
    return jacfwd(f)(x)
''',
    "hvp_impl": '''
def hvp(f, x, v):
    shape = x.shape

    def g(flat):
        return grad(lambda z: f(z.reshape(shape)))(flat)

    return jvp(g, (x.reshape(-1),), (v.reshape(-1),))[1].reshape(shape)
''',
    "per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    wanted = {n: p.detach() for n, p in model.named_parameters() if p.requires_grad}
    buffers = dict(model.named_buffers())

    def one(w, xi, yi):
        out = functional_call(model, (w, buffers), (xi.reshape(1, *xi.shape),))
        return loss_fn(out, yi.reshape(1, *yi.shape))

    grads, _losses = vmap(torch.func.grad_and_value(one), in_dims=(None, 0, 0))(wanted, x, y)
    return grads
''',
    "ensemble_impl": '''
def ensemble_forward(models, x, per_model=False):
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0]).to_empty(device="meta")
    if per_model:
        x = x.movedim(0, 1)

    def f(p, b, xb):
        return functional_call(base, (p, b), (xb,))

    out = vmap(f, in_dims=(0, 0, 1 if per_model else None), out_dims=1)(params, buffers, x)
    return out.movedim(1, 0)
''',
}
