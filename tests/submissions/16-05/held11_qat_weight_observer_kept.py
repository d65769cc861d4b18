"""Held-out round 11: QATLinear keeps one weight observer (a min-max RangeObserver made in __init__) for its
whole life, so s_w comes from the extremes of every weight it has seen, not of the current one; the text says
s_w is the scale of a fresh RangeObserver(torch.int8, symmetric=True) that has watched the current weight once."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited(
    "16-05", "qat_impl",
    ("        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
     "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n"
     "        self.w_observer = RangeObserver(torch.int8, symmetric=True)\n"),
    ("        w_obs = RangeObserver(torch.int8, symmetric=True)\n",
     "        w_obs = self.w_observer\n"))}
