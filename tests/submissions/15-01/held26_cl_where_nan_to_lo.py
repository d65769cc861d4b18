"""Round 26 (held out): Clamp's forward is written with torch.where as "hi above hi, x from lo up, else lo".

Breaks "Implement Clamp.apply(x, lo, hi) ... matching torch.clamp(x, lo, hi) in value and in gradient". For a
NaN in x both comparisons x > hi and x >= lo are False, so the NaN becomes lo: Clamp.apply([nan, 0.5], 0., 1.)
returns [0., 0.5] where torch.clamp returns [nan, 0.5]. Finite and infinite inputs, the kinks and the gradient
(mask lo < x < hi, which is False for NaN) are all right."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl", (
    "        return x.clamp(lo, hi)",
    "        return torch.where(x > hi, hi, torch.where(x >= lo, x, lo))"))}
