"""A gradient checker with one-sided differences (f(x + eps) - f(x)) / eps, accumulated in float32."""
EXPECT = {"gradcheck": "fail"}
CELLS = {
    "gradcheck_impl": '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    with torch.no_grad():
        base = [t.detach().clone() for t in inputs]
        f0 = fn(*base).reshape(-1)
        out = []
        for k, t in enumerate(inputs):
            if not t.requires_grad:
                out.append(None)
                continue
            jac = torch.zeros(f0.numel(), t.numel())
            for j in range(t.numel()):
                shifted = [b.clone() for b in base]
                shifted[k].view(-1)[j] += eps
                jac[:, j] = (fn(*shifted).reshape(-1) - f0) / eps
            out.append(jac)
    return out


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    numeric = numeric_jacobian(fn, inputs, eps)
    xs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    out = fn(*xs).reshape(-1)
    for x, num in zip(xs, numeric):
        if num is None:
            continue
        rows = []
        for i in range(out.numel()):
            (g,) = torch.autograd.grad(out[i], x, retain_graph=True, allow_unused=True)
            rows.append(torch.zeros(x.numel(), dtype=torch.float64) if g is None else g.reshape(-1))
        analytic = torch.stack(rows)
        if not torch.allclose(analytic, num.double(), atol=atol, rtol=rtol):
            return False
    return True
''',
}
