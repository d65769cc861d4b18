"""Held-out round 27: `evaluate` restores the submodules' modes after a normal return and in `except Exception:`
(then re-raises), not in `finally`. A KeyboardInterrupt (the user stopping a long evaluation) or SystemExit inside
`model(x)` skips both, and the model stays in eval mode. The text: "Every submodule is left in the train or eval
mode it was in before the call" and "... as they were before the call, also when `model(x)` raises"."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "fail", "checkpoint": "pass"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("""    try:
        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):
            return model(x)
    finally:
        for m, mode in modes.items():
            m.training = mode
""", """    try:
        with (torch.no_grad() if keep_for_autograd else torch.inference_mode()):
            out = model(x)
    except Exception:
        for m, mode in modes.items():
            m.training = mode
        raise
    for m, mode in modes.items():
        m.training = mode
    return out
"""))}
