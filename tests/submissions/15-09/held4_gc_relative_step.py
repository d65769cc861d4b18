"""Breaks: "column `j` is the central difference `(f(x + eps·e_j) - f(x - eps·e_j)) / (2·eps)`".

numeric_jacobian scales the step with the element's size, h = eps * max(1, |x_j|) (the textbook
"relative step"), and divides by 2h. For elements of size at most 1 nothing changes; for larger ones
the step differs from the eps it is given, and with a coarse eps the difference quotient differs
visibly (for x**3 at x = 5 with eps = 0.1: 75.25 instead of 75.01).
"""
EXPECT = {"gradcheck": "fail"}

CELLS = {
    "gradcheck_impl": '''
def _index_of(shape, j):
    """The multi-index of flat position j in reshape(-1) order."""
    index = []
    for size in reversed(shape):
        index.append(j % size)
        j //= size
    return tuple(reversed(index))


def numeric_jacobian(fn, inputs, eps=1e-6):
    """Central-difference Jacobians, one (out.numel(), inp.numel()) float64 tensor per input (None if no grad)."""
    result = []
    with torch.no_grad():
        for inp in inputs:
            if not (isinstance(inp, torch.Tensor) and inp.requires_grad):
                result.append(None)
                continue
            columns = []
            for j in range(inp.numel()):
                idx = _index_of(inp.shape, j)
                orig = inp[idx].item()
                h = eps * max(1.0, abs(orig))
                inp[idx] = orig + h
                plus = fn(*inputs).detach().clone()
                inp[idx] = orig - h
                minus = fn(*inputs).detach().clone()
                inp[idx] = orig
                columns.append(((plus - minus) / (2 * h)).reshape(-1).to(torch.float64))
            result.append(torch.stack(columns, dim=1))
    return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
    numeric = numeric_jacobian(fn, inputs, eps)
    targets = [i for i, t in enumerate(inputs) if isinstance(t, torch.Tensor) and t.requires_grad]
    with torch.enable_grad():
        out = fn(*inputs).reshape(-1)
    analytic = {i: torch.zeros(out.numel(), inputs[i].numel(), dtype=torch.float64) for i in targets}
    if out.requires_grad:
        for r in range(out.numel()):
            grads = torch.autograd.grad(out[r], [inputs[i] for i in targets], retain_graph=True, allow_unused=True)
            for i, g in zip(targets, grads):
                if g is not None:
                    analytic[i][r] = g.reshape(-1)
    for i in targets:
        if not bool(((analytic[i] - numeric[i]).abs() <= atol + rtol * numeric[i].abs()).all()):
            return False
    return True
''',
}
