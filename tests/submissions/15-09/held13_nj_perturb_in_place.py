"""Held-out round 13 (numeric_jacobian / check_gradients, "Both leave the input tensors unchanged (same values
afterwards)"): to save copies, each element of the caller's own tensor is moved by +eps, -2·eps and +eps in
place (under no_grad). In float64 x + eps - 2·eps + eps is not always x: about a third of the elements come
back one or two ulps off, so the inputs' values change."""
from course.grading.class_run.submissions import edited

EXPECT = {"gradcheck": "fail"}
BASE = "reference"
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    """        base = [t.detach().clone(memory_format=torch.contiguous_format) for t in inputs]
        out_numel = fn(*base).numel()""",
    """        base = [t.detach() for t in inputs]  # the caller's storage: no copy of a big input
        out_numel = fn(*base).numel()""",
), (
    """                plus = [b.clone() for b in base]
                minus = [b.clone() for b in base]
                plus[k].view(-1)[j] += eps
                minus[k].view(-1)[j] -= eps
                diff = fn(*plus).reshape(-1).to(torch.float64) - fn(*minus).reshape(-1).to(torch.float64)
                jac[:, j] = diff / (2 * eps)""",
    """                idx = tuple(int(i) for i in torch.unravel_index(torch.tensor(j), t.shape))
                base[k][idx] += eps
                plus = fn(*base).reshape(-1).to(torch.float64).clone()
                base[k][idx] -= 2 * eps
                minus = fn(*base).reshape(-1).to(torch.float64).clone()
                base[k][idx] += eps  # back where it was
                jac[:, j] = (plus - minus) / (2 * eps)""",
))}
