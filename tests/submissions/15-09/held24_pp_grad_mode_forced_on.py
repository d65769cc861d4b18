"""fixed_predict_proba turns autograd off with torch.set_grad_enabled(False) and, in its finally clause, back on with
torch.set_grad_enabled(True), whatever it was before. Called inside the caller's own torch.no_grad() block (an
evaluation loop), it switches autograd on for the rest of that block: the caller's later operations build graphs. A
wrong side effect of "computed ... without building a graph" done through the global switch; wrong for
with torch.no_grad(): fixed_predict_proba(model, x); torch.is_grad_enabled() (True, expected False)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    """    try:
        with torch.no_grad():
            return F.softmax(model(x), dim=1)
    finally:
        for m, was_training in modes:
            m.training = was_training
""",
    """    torch.set_grad_enabled(False)
    try:
        return F.softmax(model(x), dim=1)
    finally:
        for m, was_training in modes:
            m.training = was_training
        torch.set_grad_enabled(True)
"""))}
