"""Nesterov's look-ahead added in place, d.add_(buf, alpha=mu): without weight decay d is p.grad itself,
so step() changes the .grad (the update of that step is still right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"sgd": "fail"}
CELLS = {"sgd_impl": edited("00-03", "sgd_impl", (
    """d = d.add(buf, alpha=mu) if group["nesterov"] else buf""",
    """d = d.add_(buf, alpha=mu) if group["nesterov"] else buf"""))}
