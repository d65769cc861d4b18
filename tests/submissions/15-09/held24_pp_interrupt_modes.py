"""fixed_predict_proba restores the modules' modes in an `except Exception:` clause and after a normal return. A
KeyboardInterrupt (Ctrl-C during a slow forward pass) is not an Exception: the model stays in evaluation mode, and the
training that follows runs with dropout off and frozen batch-norm statistics. Breaks "leaves every module of the model
in the mode ... it was in, also when model(x) raises"; wrong for a model whose forward raises KeyboardInterrupt."""
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
    """    try:
        with torch.no_grad():
            probs = F.softmax(model(x), dim=1)
    except Exception:
        for m, was_training in modes:
            m.training = was_training
        raise
    for m, was_training in modes:
        m.training = was_training
    return probs
"""))}
