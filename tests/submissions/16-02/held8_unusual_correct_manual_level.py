"""Held-out round 8, correct written differently: SiLU's derivative as s * (1 + x * sigmoid(-x)) (1 - s is
sigmoid(-x)); dual_jvp enters and exits the level by hand in try/finally and makes its zeros with
out.new_zeros; jacobian picks the transform from a table; hvp goes through a named gradient function;
per_sample_grads passes only the trainable parameters (the model supplies frozen ones and buffers);
ensemble_forward empties the base copy with to_empty on the meta device."""
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
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def _slope(x):
        return torch.sigmoid(x) * (1 + x * torch.sigmoid(-x))

    @staticmethod
    def backward(ctx, g):
        return g * SiLU._slope(ctx.saved_tensors[0])

    @staticmethod
    def jvp(ctx, t):
        return SiLU._slope(ctx.saved_tensors[0]) * t
''',
    "dual_jvp_impl": '''
def dual_jvp(f, primals, tangents):
    level = fwAD.enter_dual_level()
    try:
        y = f(*(fwAD.make_dual(p, t, level=level) for p, t in zip(primals, tangents)))
        out, tan = fwAD.unpack_dual(y, level=level)
        return out, (out.new_zeros(out.shape) if tan is None else tan)
    finally:
        fwAD.exit_dual_level(level=level)
''',
    "jacobian_impl": '''
def jacobian(f, x):
    with torch.no_grad():
        wide = f(x).numel() <= x.numel()
    return {True: jacrev, False: jacfwd}[bool(wide)](f)(x)
''',
    "hvp_impl": '''
def hvp(f, x, v):
    gradient_of_f = grad(f)
    _, hv = jvp(gradient_of_f, (x,), (v,))
    return hv
''',
    "per_sample_impl": '''
def per_sample_grads(model, loss_fn, x, y):
    trainable = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}

    def one(p, xi, yi):
        return loss_fn(functional_call(model, p, (xi[None],)), yi[None])

    return vmap(grad(one), in_dims=(None, 0, 0))(trainable, x, y)
''',
    "ensemble_impl": '''
def ensemble_forward(models, x, per_model=False):
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0]).to_empty(device="meta")
    run = vmap(lambda p, b, xb: functional_call(base, (p, b), (xb,)), in_dims=(0, 0, 0 if per_model else None))
    return run(params, buffers, x)
''',
}
