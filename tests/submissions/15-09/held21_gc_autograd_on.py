"""numeric_jacobian runs its perturbed evaluations with autograd on (no torch.no_grad(), the perturbed copies keep
requires_grad): every evaluation of fn builds a graph, and the returned Jacobian is itself part of one
(requires_grad=True, a CopySlices grad_fn), although the text says "Compute it with autograd off"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    """    with torch.no_grad():
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
""",
    """    base = [t.clone(memory_format=torch.contiguous_format) for t in inputs]
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
"""))}
