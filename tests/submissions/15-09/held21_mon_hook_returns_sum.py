"""GradMonitor's hook returns the running sum it records (return self.sums[id(p)]) instead of None: a tensor hook's
return value replaces the gradient, so from the second backward on (without clear()) the parameter's .grad gains the
recorded sum instead of this backward's gradient, and training changes. The monitor's own norms stay right: the
text's "records the gradients the hooks receive" is an observer's job, and a monitor that alters the gradients it
observes is wrong."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "fail", "zoo": "pass", "leaks": "pass"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g
""",
    """                self.sums[id(p)] = g if id(p) not in self.sums else self.sums[id(p)] + g
                return self.sums[id(p)]
"""))}
