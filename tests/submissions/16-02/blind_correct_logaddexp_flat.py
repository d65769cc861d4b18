"""Correct, written unusually (blind round): SiLU's sigmoid as exp(-logaddexp(0, -x)) with f' = s (1 + x (1 - s));
dual_jvp builds the duals in a loop and zeros with new_zeros; jacobian differentiates a flattened f of a
flattened x and reshapes the (m, n) matrix; hvp runs torch.func.grad on a dual tensor inside a dual level
(forward over reverse without torch.func.jvp); per_sample_grads differentiates only the trainable dict and
passes frozen parameters with the buffers; ensemble_forward expands a shared batch to (M, B, ...) and maps
every argument over dimension 0, on a data-holding deepcopy as the base."""
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {
    "silu_impl": '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def _sig(x):
        return torch.exp(-torch.logaddexp(torch.zeros_like(x), -x))

    @staticmethod
    def forward(x):
        return x * SiLU._sig(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def _deriv(ctx):
        x = ctx.saved_tensors[0]
        s = SiLU._sig(x)
        return s * (1 + x * (1 - s))

    @staticmethod
    def backward(ctx, g):
        return SiLU._deriv(ctx) * g

    @staticmethod
    def jvp(ctx, t):
        return SiLU._deriv(ctx) * t
''',
    "dual_jvp_impl": '''
def dual_jvp(f, primals, tangents):
    with fwAD.dual_level():
        duals = []
        for i in range(len(primals)):
            duals.append(fwAD.make_dual(primals[i], tangents[i]))
        res = fwAD.unpack_dual(f(*duals))
        value = res.primal.clone()
        if res.tangent is None:
            return value, value.new_zeros(value.shape)
        return value, res.tangent.clone()
''',
    "jacobian_impl": '''
def jacobian(f, x):
    out_shape = f(x).shape
    n_in, n_out = x.numel(), math.prod(out_shape)

    def flat_f(flat_x):
        return f(flat_x.reshape(x.shape)).reshape(-1)

    transform = jacfwd if n_in < n_out else jacrev
    return transform(flat_f)(x.reshape(-1)).reshape(tuple(out_shape) + tuple(x.shape))


import math
''',
    "hvp_impl": '''
def hvp(f, x, v):
    with fwAD.dual_level():
        g = grad(f)(fwAD.make_dual(x, v))
        tangent = fwAD.unpack_dual(g).tangent
    if tangent is None:
        return torch.zeros_like(x)
    return tangent
''',
    "per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    train, fixed = {}, {}
    for name, p in model.named_parameters():
        (train if p.requires_grad else fixed)[name] = p.detach()
    for name, b in model.named_buffers():
        fixed[name] = b

    def loss_of_one(trainable, others, xi, yi):
        out = functional_call(model, {**trainable, **others}, (xi[None],))
        return loss_fn(out, yi[None])

    return vmap(grad(loss_of_one), in_dims=(None, None, 0, 0))(train, fixed, x, y)
''',
    "ensemble_impl": '''
def ensemble_forward(models, x, per_model=False):
    params, buffers = stack_module_state(models)
    skeleton = copy.deepcopy(models[0])
    if not per_model:
        x = x.unsqueeze(0).expand(len(models), *x.shape)
    run = vmap(lambda p, b, xm: functional_call(skeleton, {**p, **b}, (xm,)))
    return run(params, buffers, x)
''',
}
