"""find_leaks keeps what step() returns (`_ = step()`, the notebook's own habit for an unused value) until the next
call: a step that returns the tensor it made (a loss, an output) has that tensor kept alive by find_leaks while the
next step runs, although the text says "It holds no strong reference to any tensor between calls of step"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "fail"}
CELLS = {"leaks_impl": edited("15-09", "leaks_impl", (
    """    for _ in range(n_iters):
        step()
""",
    """    for _it in range(n_iters):
        _ = step()
"""))}
