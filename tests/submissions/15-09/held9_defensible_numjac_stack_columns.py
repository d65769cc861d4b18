"""Held-out round 9, written as wrong, judged defensible and kept as a correct example: numeric_jacobian collects
the columns in a list and returns torch.stack(cols, dim=1), which raises for an input with no elements (shape
(0, 3)). The text never mentions inputs without elements, the checks deliberately leave them out
(test_numeric_jacobian_any_shape_and_layout: "a gradient check of a zero-size input is not asked for"), and two
earlier correct examples (unusual_correct.py, held4_correct_other_ways.py) stack their columns the same way."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited(
    "15-09", "gradcheck_impl",
    ("            jac = torch.zeros(out_numel, t.numel(), dtype=torch.float64)\n", "            cols = []\n"),
    ("                jac[:, j] = diff / (2 * eps)\n            jacobians.append(jac)\n",
     "                cols.append(diff / (2 * eps))\n            jacobians.append(torch.stack(cols, dim=1))\n"))}
