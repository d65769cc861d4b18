"""Known-wrong accumulate_grads (gap round): gradients weighted right (n_j / N), but the returned loss is
the plain mean of the micro-batch losses, wrong whenever the last micro-batch is smaller ("Return the
full batch's loss as a Python float")."""
from course.grading.class_run.submissions import edited

CELLS = {"accumulate_impl": edited("00-03", "accumulate_impl",
    ("    total = 0.0\n", "    total, count = 0.0, 0\n"),
    ("        total += loss.item() * weight\n    return total\n",
     "        total += loss.item()\n        count += 1\n    return total / count\n"))}
EXPECT = {"accumulate": "fail"}
