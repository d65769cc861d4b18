"""Correct, written differently: SiLU through a module-level f' helper; dual_jvp opens the level by hand with
try/finally; jacobian compares the output's size first; hvp flattens x and v and maps back; per_sample_grads
differentiates a tuple of tensors and rebuilds the dict; ensemble_forward expands x to (M, B, ...) and maps
everything over dim 0."""
EXPECT = {'silu': 'pass', 'dual_jvp': 'pass', 'jacobian': 'pass', 'hvp': 'pass', 'per_sample': 'pass', 'ensemble': 'pass'}
CELLS = {
    'silu_impl': '''
def _fprime(x):
    s = torch.sigmoid(x)
    return s * (1 + x * (1 - s))


class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return torch.sigmoid(x) * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
        ctx.save_for_forward(*inputs)

    @staticmethod
    def backward(ctx, g):
        return _fprime(ctx.saved_tensors[0]) * g

    @staticmethod
    def jvp(ctx, t):
        return _fprime(ctx.saved_tensors[0]) * t
''',
    'dual_jvp_impl': '''
def dual_jvp(f, primals, tangents):
    lvl = fwAD.dual_level()
    lvl.__enter__()
    try:
        ins = []
        for i in range(len(primals)):
            ins.append(fwAD.make_dual(primals[i], tangents[i]))
        out = f(*ins)
        p = fwAD.unpack_dual(out)[0]
        t = fwAD.unpack_dual(out)[1]
        if t is None:
            t = torch.zeros(p.shape, dtype=p.dtype, device=p.device)
    finally:
        lvl.__exit__(None, None, None)
    return p, t
''',
    'jacobian_impl': '''
def jacobian(f, x):
    n_out = f(x).numel()
    if n_out > x.numel():
        return jacfwd(f)(x)
    else:
        return jacrev(f)(x)
''',
    'hvp_impl': '''
def hvp(f, x, v):
    shape = x.shape

    def g(flat):
        return grad(lambda z: f(z.reshape(shape)))(flat)

    return jvp(g, (x.reshape(-1),), (v.reshape(-1),))[1].reshape(shape)
''',
    'per_sample_impl': '''
def per_sample_grads(model, loss_fn, x, y):
    names = [k for k, p in model.named_parameters() if p.requires_grad]
    values = tuple(dict(model.named_parameters())[k].detach() for k in names)

    def loss_of(vals, xi, yi):
        out = functional_call(model, dict(zip(names, vals)), (xi.unsqueeze(0),))
        return loss_fn(out, yi.unsqueeze(0))

    gs = vmap(grad(loss_of), in_dims=(None, 0, 0))(values, x, y)
    return {k: g for k, g in zip(names, gs)}
''',
    'ensemble_impl': '''
def ensemble_forward(models, x, per_model=False):
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0])
    M = len(models)
    xs = x if per_model else x.unsqueeze(0).expand(M, *x.shape)

    def one(p, b, xi):
        return functional_call(base, (p, b), (xi,))

    return vmap(one)(params, buffers, xs)
''',
}
