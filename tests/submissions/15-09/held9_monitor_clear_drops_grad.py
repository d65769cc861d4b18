"""Held-out round 9: GradMonitor.clear() also sets .grad of every monitored parameter to None, to "start
clean"; the text says clear() forgets the recorded gradients and leaves .grad untouched."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited(
    "15-09", "monitor_impl",
    ("        self.sums = {}\n        ### END SOLUTION\n",
     "        self.sums = {}\n"
     "        for _, params in self.owners:\n"
     "            for p in params:\n"
     "                p.grad = None\n"
     "        ### END SOLUTION\n"))}
