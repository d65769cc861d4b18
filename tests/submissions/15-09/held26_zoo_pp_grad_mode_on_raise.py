"""fixed_predict_proba turns autograd off with torch.set_grad_enabled(False) (the function form, not a with block),
restores the modules' modes in a finally, and puts the previous grad mode back only after a successful forward.
When model(x) raises (a shape mismatch, a bad batch), the modes come back but autograd stays off for the whole
process: every later forward builds no graph and the caller's next loss.backward() raises "element 0 of tensors does
not require grad". Breaks "computed in evaluation mode and without building a graph" (the graph-free computation is
the call's, not the caller's afterwards) and the "also when model(x) raises" clause as a side effect on the global
grad mode."""
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
    """    previous = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    try:
        probs = F.softmax(model(x), dim=1)
    finally:
        for m, was_training in modes:
            m.training = was_training
    torch.set_grad_enabled(previous)
    return probs
"""))}
