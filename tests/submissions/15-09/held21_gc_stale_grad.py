"""check_gradients builds the analytic Jacobian by calling backward on the caller's own input tensors and reading
their .grad after each row (zeroing it in between): an input that already holds a .grad from an earlier backward adds
that stale gradient to the first row, although the text says such a .grad "is no part of the Jacobian"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    """    xs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    out = fn(*xs).reshape(-1)
    diff = [x for x in xs if x.requires_grad]
    rows = []
    for i in range(out.numel()):
        # an output that no checked input reaches requires no gradient: every row is zero
        grads = torch.autograd.grad(out[i], diff, retain_graph=True, allow_unused=True) if out.requires_grad \\
            else [None] * len(diff)
        rows.append([torch.zeros(x.numel(), dtype=torch.float64) if g is None else g.reshape(-1).double()
                     for g, x in zip(grads, diff)])
""",
    """    # the caller's own tensors (a tensor passed twice gets a copy per position)
    xs = [t if t.requires_grad and sum(u is t for u in inputs) == 1
          else t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]
    out = fn(*xs).reshape(-1)
    diff = [x for x in xs if x.requires_grad]
    rows = []
    for i in range(out.numel()):
        if out.requires_grad:
            out[i].backward(retain_graph=True)
        grads = [None if x.grad is None else x.grad.clone() for x in diff]
        for x in diff:
            if x.grad is not None:
                x.grad.zero_()
        rows.append([torch.zeros(x.numel(), dtype=torch.float64) if g is None else g.reshape(-1).double()
                     for g, x in zip(grads, diff)])
"""))}
