"""fixed_predict_proba restores the saved modes in an `except Exception:` clause (then re-raises) and again after a
successful forward, instead of in a `finally:`. A KeyboardInterrupt (Ctrl-C, or the notebook's interrupt button
during a slow forward pass) is not an Exception: the model is left in evaluation mode, and the next training run
silently trains without dropout. Breaks "leaves every module of the model in the mode ... it was in, also when
model(x) raises" when model(x) raises KeyboardInterrupt (or any other BaseException such as SystemExit)."""
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
