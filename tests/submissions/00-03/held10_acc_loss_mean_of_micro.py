"""Held-out round 10: the gradients are weighted by n_j / N, but the returned loss is the plain mean of the
micro-batch losses, which is not the full batch's loss when the last micro-batch is smaller. Breaks "Return the
full batch's loss as a Python float"."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail", "sgd": "pass", "adamw": "pass", "schedule": "pass", "collate": "pass"}
CELLS = {"accumulate_impl": edited(
    "00-03", "accumulate_impl",
    ("    total = 0.0\n", "    losses = []\n"),
    ("        total += loss.item() * weight\n    return total\n",
     "        losses.append(loss.item())\n    return sum(losses) / len(losses)\n"))}
