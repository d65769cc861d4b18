"""check_gradients scales rtol by |analytic| instead of |numeric| (the reverse of torch.allclose(analytic,
numeric)): verdicts differ from gradcheck when the analytic gradient is far off and the tolerances are wide."""
EXPECT = {"gradcheck": "fail"}
CELLS = {
    "gradcheck_impl": '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    with torch.no_grad():
        base = [t.detach().clone(memory_format=torch.contiguous_format) for t in inputs]
        out_numel = fn(*base).numel()
        jacobians = []
        for k, t in enumerate(inputs):
            if not t.requires_grad:
                jacobians.append(None)
                continue
            jac = torch.zeros(out_numel, t.numel(), dtype=torch.float64)
            for j in range(t.numel()):
                plus = [b.clone() for b in base]
                minus = [b.clone() for b in base]
                plus[k].view(-1)[j] += eps
                minus[k].view(-1)[j] -= eps
                diff = fn(*plus).reshape(-1).to(torch.float64) - fn(*minus).reshape(-1).to(torch.float64)
                jac[:, j] = diff / (2 * eps)
            jacobians.append(jac)
    return jacobians


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    numeric = numeric_jacobian(fn, inputs, eps)
    xs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    out = fn(*xs).reshape(-1)
    diff = [x for x in xs if x.requires_grad]
    rows = []
    for i in range(out.numel()):
        grads = torch.autograd.grad(out[i], diff, retain_graph=True, allow_unused=True)
        rows.append([torch.zeros(x.numel(), dtype=torch.float64) if g is None else g.reshape(-1).double()
                     for g, x in zip(grads, diff)])
    k = 0
    for t, num in zip(inputs, numeric):
        if num is None:
            continue
        analytic = torch.stack([r[k] for r in rows])
        k += 1
        if not bool(((analytic - num).abs() <= atol + rtol * analytic.abs()).all()):
            return False
    return True
''',
}
