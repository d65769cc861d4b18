"""numeric_jacobian evaluates fn on detached copies but with autograd on (no torch.no_grad()): the columns are
right, but every call of fn that touches a tensor requiring a gradient (a weight fn closes over, a module's
parameters) builds a graph, although the text says "Compute it with autograd off"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    "    with torch.no_grad():\n"
    "        base = [t.detach().clone(memory_format=torch.contiguous_format) for t in inputs]\n",
    "    if True:  # the inputs are detached, so no graph is built (or so it seems)\n"
    "        base = [t.detach().clone(memory_format=torch.contiguous_format) for t in inputs]\n"))}
