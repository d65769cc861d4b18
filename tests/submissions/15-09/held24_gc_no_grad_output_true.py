"""check_gradients returns True at once when fn's output does not require a gradient ("nothing to check"). But "where
no gradient flows, the row is zero": the analytic Jacobian is zero and must still be compared with the numeric one.
For fn = lambda a: a.detach() * 2 the numeric Jacobian is 2·I, the analytic one 0, and
torch.autograd.gradcheck(..., raise_exception=False) is False; this answer says True. ("Its verdict must agree with
torch.autograd.gradcheck".)"""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    """    out = fn(*xs).reshape(-1)
    diff = [x for x in xs if x.requires_grad]
""",
    """    out = fn(*xs).reshape(-1)
    if not out.requires_grad:
        return True  # no differentiable output: nothing for backward to get wrong
    diff = [x for x in xs if x.requires_grad]
"""))}
