"""Round 28: when training resumes after an evaluation (the module was in eval mode at its previous call and is in
training mode now), forward starts a fresh act_observer, as if each training phase recalibrated from scratch. The
moving average then forgets everything seen before the evaluation: after train(); layer(x1); eval(); layer(x0);
train(); layer(x2), act_observer.min_val is x2's minimum where it must be min(x1) + 0.01 * (min(x2) - min(x1)).
Breaks "act_observer, a RangeObserver(torch.uint8, averaging_constant=0.01)" whose "first tensor sets them and each
later one moves them", and "In eval mode, forward does the same without updating act_observer" (the evaluation
does not change the observer, so neither may the return to training)."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "pass", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        if self.training:\n",
    "        if self.training and not self.__dict__.get(\"_was_training\", True):\n"
    "            self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)  # a new training phase\n"
    "        self.__dict__[\"_was_training\"] = self.training\n"
    "        if self.training:\n"))}
