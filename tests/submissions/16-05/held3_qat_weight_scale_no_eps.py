"""Held-out round 3: QATLinear takes the weight's scale as weight.abs().max() / 127.5 (as the visible check
does) instead of from a RangeObserver: no eps floor, so an all-zero weight gives scale 0, an infinite inverse
and NaN outputs (the task's observer floors the scale at float32's eps)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited(
    "16-05", "qat_impl",
    ("        w_obs = RangeObserver(torch.int8, symmetric=True)\n        w_obs(self.weight)\n"
     "        s_w, _ = w_obs.calculate_qparams()\n",
     "        s_w = self.weight.detach().abs().max() / 127.5\n"))}
