"""Held-out round 8: QATLinear computes the weight scale in training mode and keeps it; in eval mode it reuses
the scale of the last training call, so a weight changed after that call (the last optimizer step, a loaded
state dict) is fake-quantized with a stale scale. The text says s_w comes from a fresh observer that has watched
the current weight once, and that eval mode does the same (only act_observer is left alone)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited(
    "16-05", "qat_impl",
    ("        w_obs = RangeObserver(torch.int8, symmetric=True)\n        w_obs(self.weight)\n"
     "        s_w, _ = w_obs.calculate_qparams()\n",
     "        if self.training or getattr(self, \"_s_w\", None) is None:\n"
     "            w_obs = RangeObserver(torch.int8, symmetric=True)\n            w_obs(self.weight)\n"
     "            self._s_w, _ = w_obs.calculate_qparams()\n"
     "        s_w = self._s_w\n"))}
