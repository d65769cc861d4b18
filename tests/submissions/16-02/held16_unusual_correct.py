"""Round 16: correct answers written differently: SiLU's f'(x) as s * (1 + x * sigmoid(-x)) from torch.special.expit;
dual_jvp enters and exits its level by hand in try/finally and makes zeros with new_zeros; jacobian compares
sizes with math.prod of the shapes; hvp linearises nothing and passes x and v through jvp of grad with argnums;
per_sample_grads passes only the trainable parameters (functional_call takes the rest from the model);
ensemble_forward expands x for every model."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {
    "silu_impl": edited("16-02", "silu_impl",
        ("""        s = torch.sigmoid(x)
        return g * (s + x * s * (1 - s))""",
         """        s = torch.special.expit(x)
        return g * (s * (1 + x * torch.special.expit(-x)))"""),
        ("""        s = torch.sigmoid(x)
        return t * (s + x * s * (1 - s))""",
         """        s = torch.special.expit(x)
        return (s * (1 + x * torch.special.expit(-x))) * t""")),
    "dual_jvp_impl": '''def dual_jvp(f, primals, tangents):
    level = fwAD.enter_dual_level()
    try:
        out = f(*[fwAD.make_dual(p, t, level=level) for p, t in zip(primals, tangents)])
        primal, tangent = fwAD.unpack_dual(out, level=level)
    finally:
        fwAD.exit_dual_level(level=level)
    return primal, (out.new_zeros(out.shape) if tangent is None else tangent)
''',
    "jacobian_impl": '''import math


def jacobian(f, x):
    with torch.no_grad():
        out_shape = f(x).shape
    mode = jacfwd if math.prod(x.shape) < math.prod(out_shape) else jacrev
    return mode(f)(x)
''',
    "hvp_impl": '''def hvp(f, x, v):
    g = grad(lambda a: f(a), argnums=0)
    _, tangent_out = jvp(g, (x,), (v,))
    return tangent_out
''',
    "per_sample_impl": '''def per_sample_grads(model, loss_fn, x, y):
    trainable = {name: p.detach() for name, p in model.named_parameters() if p.requires_grad}

    def loss_of_one(p, xi, yi):
        return loss_fn(functional_call(model, p, (xi[None],)), yi[None])

    return vmap(grad(loss_of_one), in_dims=(None, 0, 0))(trainable, x, y)
''',
    "ensemble_impl": '''def ensemble_forward(models, x, per_model=False):
    params, buffers = stack_module_state(models)
    skeleton = copy.deepcopy(models[0]).to("meta")
    if not per_model:
        x = x.expand(len(models), *x.shape)
    return vmap(lambda p, b, xb: functional_call(skeleton, (p, b), (xb,)))(params, buffers, x)
''',
}
