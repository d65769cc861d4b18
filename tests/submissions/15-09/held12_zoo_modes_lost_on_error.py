"""Held-out round 12: fixed_predict_proba restores the modules' modes after the
forward pass without try/finally: when model(x) raises (a wrong input shape), the model is left in evaluation mode.
The text says: it leaves every module of the model in the mode it was in."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited(
    "15-09", "zoo_impl",
    ('    try:\n        with torch.no_grad():\n            return F.softmax(model(x), dim=1)\n    finally:\n        for m, was_training in modes:\n            m.training = was_training\n',
     '    with torch.no_grad():\n        probs = F.softmax(model(x), dim=1)\n    for m, was_training in modes:\n        m.training = was_training\n    return probs\n'))}
