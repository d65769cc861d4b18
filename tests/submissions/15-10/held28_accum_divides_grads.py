"""Wrong (held-out round 28): the loss is NOT divided by accum_steps before backward; instead the accumulated
gradients are divided by accum_steps at the optimizer step (before unscale, measure and clip). Section 6:
"Divide each batch's loss by accum_steps before backward". Input: accum_steps=3 (or any k): on_after_backward
sees gradients k times too large (the sum, not the mean, of the group's gradients), and with k=3 the final
gradient differs in the last bits from the reference ((g1+g2+g3)/3 vs g1/3+g2/3+g3/3)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("                scaled = loss / self.accum_steps\n",
     "                scaled = loss\n"),
    ("        if self.scaler is not None:\n            self.scaler.unscale_(self.optimizer)\n"
     "        params = [p for group in self.optimizer.param_groups for p in group[\"params\"]]\n",
     "        params = [p for group in self.optimizer.param_groups for p in group[\"params\"]]\n"
     "        with torch.no_grad():\n"
     "            for p in params:\n"
     "                if p.grad is not None:\n"
     "                    p.grad.div_(self.accum_steps)\n"
     "        if self.scaler is not None:\n            self.scaler.unscale_(self.optimizer)\n"))}
