"""GradMonitor.clear() also resets the parameters' gradients (p.grad = None for every monitored parameter), as if
clearing the monitor were zero_grad(): the text says clear() "forgets every recorded gradient; `.grad` is not
touched", so an accumulated .grad the training loop still needs is lost."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """    def clear(self) -> None:
        ### BEGIN SOLUTION
        self.sums = {}
""",
    """    def clear(self) -> None:
        ### BEGIN SOLUTION
        self.sums = {}
        for _, params in self.owners:
            for p in params:
                p.grad = None
"""))}
