"""Correct, written differently: SiLU with torch.special.expit, f' written with addcmul from the saved x (its first version saved expit(x)
from setup_context, which runs without grad: now blind2_silu_sigmoid_saved_in_setup);
dual_jvp in an ExitStack with new_zeros; jacobian sizes f(x) under no_grad; hvp is jvp of jacrev(f) (the
gradient of a scalar f); per_sample_grads passes frozen parameters with the buffers and maps with
randomness='same'; ensemble_forward vmaps functools.partial(functional_call, meta copy) over nested in_dims."""
EXPECT = {'silu': 'pass', 'dual_jvp': 'pass', 'jacobian': 'pass', 'hvp': 'pass', 'per_sample': 'pass', 'ensemble': 'pass'}
CELLS = {
    'silu_impl': '''
class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return torch.mul(x, torch.special.expit(x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x = inputs[0]
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        s = torch.special.expit(x)
        return g * torch.addcmul(s, x * s, 1 - s)

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        s = torch.special.expit(x)
        return torch.addcmul(s, x * s, 1 - s).mul(t)
''',
    'dual_jvp_impl': '''
import contextlib


def dual_jvp(f, primals, tangents):
    with contextlib.ExitStack() as stack:
        stack.enter_context(fwAD.dual_level())
        args = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]
        res = fwAD.unpack_dual(f(*args))
        jv = res.tangent if res.tangent is not None else res.primal.new_zeros(res.primal.shape)
        return res.primal, jv
''',
    'jacobian_impl': '''
def jacobian(f, x):
    with torch.no_grad():
        m = f(x.detach()).numel()
    mode = jacfwd if x.numel() < m else jacrev
    return mode(f)(x)
''',
    'hvp_impl': '''
def hvp(f, x, v):
    # jacrev of a scalar function is its gradient; forward mode on top of it
    return jvp(jacrev(f), (x,), (v,))[1]
''',
    'per_sample_impl': '''
def per_sample_grads(model, loss_fn, x, y):
    train = {}
    rest = {}
    for k, p in model.named_parameters():
        (train if p.requires_grad else rest)[k] = p.detach()
    for k, b in model.named_buffers():
        rest[k] = b

    def single(tp, xi, yi):
        return loss_fn(functional_call(model, (tp, rest), (xi[None],)), yi[None])

    return vmap(grad(single, argnums=0), in_dims=(None, 0, 0), randomness="same")(train, x, y)
''',
    'ensemble_impl': '''
import functools


def ensemble_forward(models, x, per_model=False):
    params, buffers = stack_module_state(models)
    base = copy.deepcopy(models[0]).to("meta")
    run = functools.partial(functional_call, base)
    return vmap(run, in_dims=((0, 0), (0 if per_model else None,)))((params, buffers), (x,))
''',
}
