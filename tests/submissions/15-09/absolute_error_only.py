"""A gradient checker that compares |analytic - numeric| with atol only (no relative part), checks only
the first input, and perturbs the caller's tensors in place without restoring them."""
EXPECT = {"gradcheck": "fail"}
CELLS = {
    "gradcheck_impl": '''
def numeric_jacobian(fn, inputs, eps=1e-6):
    out = []
    with torch.no_grad():
        n_out = fn(*inputs).numel()
        for t in inputs:
            if not t.requires_grad:
                out.append(None)
                continue
            jac = torch.zeros(n_out, t.numel(), dtype=torch.float64)
            flat = t.view(-1)
            for j in range(t.numel()):
                flat[j] += eps
                plus = fn(*inputs).reshape(-1).clone()
                flat[j] -= 2 * eps
                minus = fn(*inputs).reshape(-1).clone()
                flat[j] += eps
                jac[:, j] = (plus - minus) / (2 * eps)
            out.append(jac)
    return out


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    numeric = numeric_jacobian(fn, inputs, eps)
    x = inputs[0].detach().clone().requires_grad_(True)
    out = fn(x, *inputs[1:]).reshape(-1)
    rows = [torch.autograd.grad(out[i], x, retain_graph=True)[0].reshape(-1) for i in range(out.numel())]
    return bool(((torch.stack(rows) - numeric[0]).abs() <= atol).all())
''',
}
