"""GradMonitor.norms() returns each norm as a 0-dim float64 tensor instead of a Python float: it compares equal to
the right number and prints like one, but the text says norms() "returns a dict {module name: float}"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    "            out[name] = float(total.sqrt())\n",
    "            out[name] = total.sqrt()\n"))}
