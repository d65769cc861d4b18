"""numeric_jacobian evaluates fn on detached clones but with grad mode still on: the values are right, yet the
text says 'Compute it with autograd off' (fn sees torch.is_grad_enabled() True). Blind batch, issue #19, third round."""
EXPECT = {"gradcheck": "fail"}

CELLS = {
    "gradcheck_impl": '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    if True:
        base = [t.detach().clone() for t in inputs]
        n_out = fn(*base).numel()
        result = []
        for k, inp in enumerate(inputs):
            if not (isinstance(inp, torch.Tensor) and inp.requires_grad):
                result.append(None)
                continue
            jac = torch.zeros(n_out, inp.numel(), dtype=torch.float64)
            for j in range(inp.numel()):
                cols = []
                for sign in (1.0, -1.0):
                    args = [t.clone() for t in base]
                    flat = args[k].reshape(-1).clone()
                    flat[j] += sign * eps
                    args[k] = flat.reshape(inp.shape)
                    cols.append(fn(*args).reshape(-1).to(torch.float64))
                jac[:, j] = (cols[0] - cols[1]) / (2 * eps)
            result.append(jac)
        return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    numeric = numeric_jacobian(fn, inputs, eps)
    leaves = [t.detach().clone().requires_grad_(bool(getattr(t, "requires_grad", False)))
              if isinstance(t, torch.Tensor) else t for t in inputs]
    wanted = [i for i, t in enumerate(inputs) if isinstance(t, torch.Tensor) and t.requires_grad]
    with torch.enable_grad():
        out = fn(*leaves).reshape(-1)
    analytic = {i: torch.zeros(out.numel(), inputs[i].numel(), dtype=torch.float64) for i in wanted}
    for r in range(out.numel()):
        if not out.requires_grad:
            break
        grads = torch.autograd.grad(out[r], [leaves[i] for i in wanted], retain_graph=True, allow_unused=True)
        for i, g in zip(wanted, grads):
            if g is not None:
                analytic[i][r] = g.reshape(-1).to(torch.float64)
    for i in wanted:
        if not bool(((analytic[i] - numeric[i]).abs() <= atol + rtol * numeric[i].abs()).all()):
            return False
    return True
''',
}
