"""Blind batch of #19 (2026-11-26): check_gradients skips an input when autograd gives it no gradient
(allow_unused returns None), instead of comparing a zero row with the central differences: a Function
whose backward returns None for an input that does matter passes. Breaks: "where no gradient flows, the
row is zero"."""
EXPECT = {'anomaly': 'pass', 'gradcheck': 'fail', 'monitor': 'pass', 'zoo': 'pass', 'leaks': 'pass'}
CELLS = {
    'gradcheck_impl': r'''
def numeric_jacobian(fn, inputs, eps=1e-6):
    out_list = []
    with torch.no_grad():
        base = [t.detach().clone(memory_format=torch.contiguous_format) for t in inputs]
        out0 = fn(*base)
        for k, t in enumerate(inputs):
            if not t.requires_grad:
                out_list.append(None)
                continue
            flat = base[k].reshape(-1)
            J = torch.zeros(out0.numel(), flat.numel(), dtype=torch.float64)
            for j in range(flat.numel()):
                plus = [b.clone() for b in base]
                minus = [b.clone() for b in base]
                plus[k].view(-1)[j] += eps
                minus[k].view(-1)[j] -= eps
                J[:, j] = ((fn(*plus) - fn(*minus)).reshape(-1).to(torch.float64)) / (2 * eps)
            out_list.append(J)
    return out_list


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    numeric = numeric_jacobian(fn, inputs, eps)
    leaves = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    out = fn(*leaves).reshape(-1)
    wanted = [t for t in leaves if t.requires_grad]
    rows = {id(t): [] for t in wanted}
    for i in range(out.numel()):
        if out.requires_grad:
            gs = torch.autograd.grad(out[i], wanted, retain_graph=True, allow_unused=True)
        else:
            gs = [None] * len(wanted)
        for t, g in zip(wanted, gs):
            rows[id(t)].append(torch.zeros(t.numel(), dtype=torch.float64) if g is None
                               else g.reshape(-1).to(torch.float64))
    for t, n in zip(leaves, numeric):
        if n is None:
            continue
        if all(r.abs().sum() == 0 for r in rows[id(t)]):
            continue  # no gradient reached this input: nothing to compare
        a = torch.stack(rows[id(t)]) if rows[id(t)] else torch.zeros_like(n)
        if not bool(((a - n).abs() <= atol + rtol * n.abs()).all()):
            return False
    return True
''',
}
