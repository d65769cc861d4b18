"""Held-out round 2 (15-09 gradcheck): check_gradients returns torch.autograd.gradcheck's own verdict.

numeric_jacobian is written from scratch, but check_gradients hands the whole job to
torch.autograd.gradcheck(fn, inputs, eps=eps, atol=atol, rtol=rtol, raise_exception=False), where the text
says "Write both from scratch: torch.autograd.gradcheck is the yardstick". Every verdict agrees, by
construction.
"""
EXPECT = {'gradcheck': 'fail'}

CELLS = {
    'gradcheck_impl': '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    """Central-difference Jacobians, one (out.numel(), inp.numel()) float64 tensor per input (None if no grad)."""
    inputs = list(inputs)
    result = []
    with torch.no_grad():
        for i, inp in enumerate(inputs):
            if not (isinstance(inp, torch.Tensor) and inp.requires_grad):
                result.append(None)
                continue
            cols = []
            for j in range(inp.numel()):
                step = torch.zeros(inp.numel(), dtype=inp.dtype, device=inp.device)
                step[j] = eps
                step = step.reshape(inp.shape)
                args_p = [a.detach() for a in inputs]
                args_m = [a.detach() for a in inputs]
                args_p[i] = inp.detach() + step
                args_m[i] = inp.detach() - step
                diff = (fn(*args_p).reshape(-1) - fn(*args_m).reshape(-1)) / (2 * eps)
                cols.append(diff.to(torch.float64))
            out_n = fn(*[a.detach() for a in inputs]).numel()
            result.append(torch.stack(cols, 1) if cols else torch.zeros(out_n, 0, dtype=torch.float64))
    return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
    return bool(torch.autograd.gradcheck(fn, tuple(inputs), eps=eps, atol=atol, rtol=rtol, raise_exception=False))
    inputs = list(inputs)
    numeric = numeric_jacobian(fn, inputs, eps)
    xs = [a.detach().requires_grad_(a.requires_grad) for a in inputs]
    checked = [i for i, a in enumerate(xs) if a.requires_grad]
    out = fn(*xs).reshape(-1)
    rows = {i: torch.zeros(out.numel(), xs[i].numel(), dtype=torch.float64) for i in checked}
    if out.requires_grad:
        for r in range(out.numel()):
            grads = torch.autograd.grad(out[r], [xs[i] for i in checked], retain_graph=True, allow_unused=True)
            for i, g in zip(checked, grads):
                if g is not None:
                    rows[i][r] = g.reshape(-1).to(torch.float64)
    ok = all(bool(((rows[i] - numeric[i]).abs() <= atol + rtol * numeric[i].abs()).all()) for i in checked)
    return bool(ok)
''',
}
