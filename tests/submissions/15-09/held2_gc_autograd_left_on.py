"""Held-out round 2 (15-09 gradcheck): numeric_jacobian evaluates fn with autograd on, on the inputs themselves.

The text: "Compute it with autograd off". The perturbed inputs are built from the original tensors (which
require a gradient), so every fn call records a graph, and the Jacobian is filled in place from tensors
that require grad: it comes back with requires_grad=True and a grad_fn (CopySlices) holding all of them.
"""
EXPECT = {'gradcheck': 'fail'}

CELLS = {
    'gradcheck_impl': '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    """Central-difference Jacobians, one (out.numel(), inp.numel()) float64 tensor per input (None if no grad)."""
    inputs = list(inputs)
    result = []
    if True:
        for i, inp in enumerate(inputs):
            if not (isinstance(inp, torch.Tensor) and inp.requires_grad):
                result.append(None)
                continue
            out_n = fn(*inputs).numel()
            jac = torch.zeros(out_n, inp.numel(), dtype=torch.float64)
            for j in range(inp.numel()):
                step = torch.zeros(inp.numel(), dtype=inp.dtype, device=inp.device)
                step[j] = eps
                step = step.reshape(inp.shape)
                args_p = [a.detach() for a in inputs]
                args_m = [a.detach() for a in inputs]
                args_p[i] = inp + step
                args_m[i] = inp - step
                jac[:, j] = (fn(*args_p).reshape(-1) - fn(*args_m).reshape(-1)) / (2 * eps)
            result.append(jac)
    return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
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
