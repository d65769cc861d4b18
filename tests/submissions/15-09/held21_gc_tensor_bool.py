"""check_gradients returns its verdict as a 0-dim bool tensor (torch.stack of the per-input verdicts, .all()) instead
of a Python bool: it prints as tensor(True) and `is True` is never true, although the text asks for "True ... False
otherwise (a Python bool)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    """    ok = True
    k = 0""",
    """    oks = []
    k = 0"""), (
    """        if not bool(((analytic - num).abs() <= atol + rtol * num.abs()).all()):
            ok = False
    return ok""",
    """        oks.append(((analytic - num).abs() <= atol + rtol * num.abs()).all())
    return torch.stack(oks).all() if oks else torch.tensor(True)"""))}
