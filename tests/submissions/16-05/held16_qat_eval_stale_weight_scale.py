"""Wrong: "s_w the scale from a fresh RangeObserver(torch.int8, symmetric=True) that has watched the current
weight once" and "In eval mode, forward does the same without updating act_observer". This version freezes the
weight scale with the activation range: s_w is computed in training mode and kept, and eval mode reuses the
scale of the weight as it was at the last training forward, not the current weight (after an optimizer step,
load_state_dict or any edit of the weight)."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n        self._s_w = None\n"), (
    """        if self.training:
            self.act_observer(x)
        s_x, z_x = self.act_observer.calculate_qparams()
        w_obs = RangeObserver(torch.int8, symmetric=True)
        w_obs(self.weight)
        s_w, _ = w_obs.calculate_qparams()
""",
    """        if self.training:
            self.act_observer(x)
        s_x, z_x = self.act_observer.calculate_qparams()
        if self.training or self._s_w is None:  # frozen in eval mode, like the activation range
            w_obs = RangeObserver(torch.int8, symmetric=True)
            w_obs(self.weight)
            self._s_w, _ = w_obs.calculate_qparams()
        s_w = self._s_w
"""))}
