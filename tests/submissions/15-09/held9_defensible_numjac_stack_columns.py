"""Held-out round 9: numeric_jacobian collects the columns in a list and returns torch.stack(cols, dim=1),
which raises for an input with no elements (an empty batch, shape (0, 3)), where the text's shape
(out.numel(), inp.numel()) is (out.numel(), 0) and gradcheck accepts the function."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited(
    "15-09", "gradcheck_impl",
    ("            jac = torch.zeros(out_numel, t.numel(), dtype=torch.float64)\n", "            cols = []\n"),
    ("                jac[:, j] = diff / (2 * eps)\n            jacobians.append(jac)\n",
     "                cols.append(diff / (2 * eps))\n            jacobians.append(torch.stack(cols, dim=1))\n"))}
