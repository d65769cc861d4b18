"""Round 22: run_broken adds 1 to y's first entry only, y[0] += 1 (the section's own example of an in-place
operation), not to y: an in-place change, so backward raises for most x, but for a 0-dim or empty x indexing
raises IndexError instead of the version-counter RuntimeError ("add 1 to y **in place** ... It must raise the
version-counter RuntimeError")."""
from course.grading.class_run.submissions import edited

EXPECT = {"inplace": "fail"}
CELLS = {"inplace_impl": edited("15-01", "inplace_impl", (
    """    y.add_(1)
    y.sum().backward()""",
    """    y[0] += 1
    y.sum().backward()"""))}
