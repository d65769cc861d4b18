"""Round 14s: a correct SiLU written unusually: sigmoid(x) as (1 + tanh(x / 2)) / 2, every formula computed in at
least float32 (a float16 or bfloat16 x is widened, float64 kept) and cast back to the dtype of x, g or t. Finite
at float16's 12 and 30 (tanh saturates, nothing overflows), and the casts keep the dtypes F.silu gives."""
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"silu_impl": '''
def _wide(x):
    return x.to(torch.promote_types(x.dtype, torch.float32))


def _slope(x):
    s = (1 + torch.tanh(x / 2)) / 2
    return s * (1 + x * (1 - s))


class SiLU(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        w = _wide(x)
        return (w * (1 + torch.tanh(w / 2)) / 2).to(x.dtype)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return (_wide(g) * _slope(_wide(x))).to(g.dtype)

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return (_wide(t) * _slope(_wide(x))).to(t.dtype)
'''}
