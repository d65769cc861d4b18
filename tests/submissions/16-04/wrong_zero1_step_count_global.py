"""Keeps the step count in a global instead of state: a second run with a fresh state continues the old count."""
from course.grading.class_run.submissions import edited

EXPECT = {'zero1': 'fail', 'zero2': 'fail'}
CELLS = {
    'zero1_impl': edited("16-04", 'zero1_impl', ('    if "step" not in state:\n        state["step"] = 0\n        state["exp_avg"] = torch.zeros_like(p)\n        state["exp_avg_sq"] = torch.zeros_like(p)\n    state["step"] += 1\n    t, (b1, b2) = state["step"], betas', '    global _STEP\n    if "exp_avg" not in state:\n        state["exp_avg"] = torch.zeros_like(p)\n        state["exp_avg_sq"] = torch.zeros_like(p)\n    _STEP = globals().get("_STEP", 0) + 1\n    t, (b1, b2) = _STEP, betas')),
}
