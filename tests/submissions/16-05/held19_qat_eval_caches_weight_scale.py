"""Round 19: QATLinear computes the weight's scale once in eval mode ("in eval the weight is frozen") and reuses
it until a training-mode forward runs. Training with the observer frozen (model.eval() and optimizer steps, the
usual last phase of QAT), or loading other weights in eval mode, leaves a stale s_w. The text: "s_w the scale
from a fresh RangeObserver(torch.int8, symmetric=True) that has watched the current weight once" and "In eval
mode, forward does the same without updating act_observer"."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        w_obs = RangeObserver(torch.int8, symmetric=True)\n"
    "        w_obs(self.weight)\n"
    "        s_w, _ = w_obs.calculate_qparams()\n",
    "        if self.training:\n"
    "            self._frozen_s_w = None\n"
    "        if not self.training and getattr(self, '_frozen_s_w', None) is not None:\n"
    "            s_w = self._frozen_s_w  # eval: the weight is frozen, its scale was taken on the first eval call\n"
    "        else:\n"
    "            w_obs = RangeObserver(torch.int8, symmetric=True)\n"
    "            w_obs(self.weight)\n"
    "            s_w, _ = w_obs.calculate_qparams()\n"
    "            if not self.training:\n"
    "                self._frozen_s_w = s_w\n"))}
