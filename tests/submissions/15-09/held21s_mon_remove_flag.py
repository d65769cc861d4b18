"""GradMonitor.remove() only switches recording off (a flag the hooks read) and leaves every hook registered:
backward records nothing afterwards, but each parameter still calls the monitor's hook on every backward and keeps
the monitor (and its recorded gradients) alive through it, although the text says remove() "removes every hook"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """            def hook(grad):
                g = grad.detach().clone()""",
    """            def hook(grad):
                if getattr(self, "removed", False):
                    return None
                g = grad.detach().clone()"""), (
    """        for h in self.handles:
            h.remove()
        self.handles = []""",
    """        self.removed = True  # the hooks stay, but record nothing from now on"""))}
