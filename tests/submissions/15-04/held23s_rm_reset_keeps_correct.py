"""Held-out round 23, second pass (not counted): the number of correct predictions is kept in its own counter,
set in __init__, and reset() clears the loss sum, the count and the matrix but not it; after a reset the
accuracy counts the correct predictions of before the reset too (over a count that does not). The text:
"`reset()` starts over" and the docstring "Forget everything seen so far"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        self.num_classes = num_classes\n        self.reset()\n",
     "        self.num_classes = num_classes\n        self._correct = 0\n        self.reset()\n"),
    ("            self._confusion += torch.bincount(pairs, minlength=c * c).view(c, c)\n",
     "            self._confusion += torch.bincount(pairs, minlength=c * c).view(c, c)\n"
     "            self._correct += int((pred == targets.cpu()).sum())\n"),
    ("        correct = int(self._confusion.diagonal().sum())\n",
     "        correct = self._correct\n"))}
