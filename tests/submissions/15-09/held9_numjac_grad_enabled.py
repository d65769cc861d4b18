"""Held-out round 9: numeric_jacobian perturbs detached copies but evaluates fn with autograd on (reasoning that
detached copies record nothing), so when fn uses a tensor that requires a gradient (a weight it closes over)
every evaluation builds a graph and the returned Jacobian requires a gradient; the text says to compute it
with autograd off."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": "import contextlib\n\n\n" + edited(
    "15-09", "gradcheck_impl",
    ("    with torch.no_grad():\n        base = [",
     "    with contextlib.nullcontext():  # the copies are detached: nothing to record\n        base = ["))}
