"""Breaks: "builds the analytic Jacobian of every input that requires a gradient from backward (one row
per output element; where no gradient flows, the row is zero)" when no gradient flows at all.

check_gradients asks autograd for each output element's gradient without looking at whether the output
is connected to any checked input. When fn's result does not depend on them (it uses only inputs that
need no gradient, or returns a constant), out.requires_grad is False and autograd.grad raises
"element 0 of tensors does not require grad"; gradcheck returns True there (all rows are zero on both
sides).
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
                inp[idx] = orig + eps
                plus = fn(*inputs).detach().clone()
                inp[idx] = orig - eps
                minus = fn(*inputs).detach().clone()
                inp[idx] = orig
                columns.append(((plus - minus) / (2 * eps)).reshape(-1).to(torch.float64))
            result.append(torch.stack(columns, dim=1))
    return result


def check_gradients(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if backward's Jacobian matches the central differences everywhere (gradcheck's test)."""
    numeric = numeric_jacobian(fn, inputs, eps)
    targets = [i for i, t in enumerate(inputs) if isinstance(t, torch.Tensor) and t.requires_grad]
    with torch.enable_grad():
        out = fn(*inputs).reshape(-1)
    analytic = {i: torch.zeros(out.numel(), inputs[i].numel(), dtype=torch.float64) for i in targets}
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
