"""Breaks: "whose column `j` is the central difference `(f(x + eps·e_j) - f(x - eps·e_j)) / (2·eps)`"
for a function whose output shares memory with its input (identity, slicing, transpose, view).

The element is perturbed in place and the two outputs are kept without copying. When fn returns a
view of its input, both "outputs" are that view, so after the element is put back they show the same
numbers and the column is zero; check_gradients then rejects a correct gradient (gradcheck accepts it).
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
                plus = fn(*inputs)
                inp[idx] = orig - eps
                minus = fn(*inputs)
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
