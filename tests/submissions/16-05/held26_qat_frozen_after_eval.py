"""Round 26: putting the layer in eval mode freezes the activation range for good: `train(False)` clears a flag
`self.observing` that nothing sets again, and forward observes only `if self.training and self.observing`.
Train, eval, evaluate is right; train, eval, train again (the usual loop with a validation pass per epoch) no
longer updates act_observer in the second training phase: after QATLinear.eval(), .train() and one forward with
x of a wider range, min_val / max_val are still those of the first phase. Breaks "In training mode, forward first
lets act_observer watch x" (and "In eval mode, forward does the same without updating act_observer": eval stops
the update while in eval mode, not afterwards)."""
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail", "quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n"
    "        self.observing = True\n"
    "\n"
    "    def train(self, mode=True):\n"
    "        if not mode:\n"
    "            self.observing = False  # the learned range is frozen, as the int8 model will have it\n"
    "        return super().train(mode)\n"), (
    "        if self.training:\n",
    "        if self.training and self.observing:\n"))}
