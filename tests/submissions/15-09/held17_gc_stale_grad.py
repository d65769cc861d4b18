"""check_gradients builds the analytic rows with out[i].backward(retain_graph=True) on the caller's own inputs and
reads their .grad, zeroing it after each row: an input that already holds a .grad from an earlier backward adds it
to the first row, although the text says that .grad "is no part of the Jacobian"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    "    xs = [t.detach().clone().requires_grad_(t.requires_grad) for t in inputs]\n"
    "    out = fn(*xs).reshape(-1)\n"
    "    diff = [x for x in xs if x.requires_grad]\n"
    "    rows = []\n"
    "    for i in range(out.numel()):\n"
    "        # an output that no checked input reaches requires no gradient: every row is zero\n"
    "        grads = torch.autograd.grad(out[i], diff, retain_graph=True, allow_unused=True) if out.requires_grad \\\n"
    "            else [None] * len(diff)\n",
    "    out = fn(*inputs).reshape(-1)\n"
    "    diff = [x for x in inputs if x.requires_grad]\n"
    "    rows = []\n"
    "    for i in range(out.numel()):\n"
    "        if out.requires_grad:\n"
    "            out[i].backward(retain_graph=True)\n"
    "        grads = [None if x.grad is None else x.grad.clone() for x in diff]\n"
    "        for x in diff:\n"
    "            if x.grad is not None:\n"
    "                x.grad.zero_()\n"))}
