"""Wrong (held-out round 24): optimizer_step logs "lr": optimizer.param_groups[0]["lr"] as it is, without float().
With a tensor learning rate (torch.optim.AdamW(params, lr=torch.tensor(0.05)), supported by PyTorch's
optimizers), the scheduler updates that one tensor IN PLACE (fill_), so every logged row holds the same
tensor and, after the run, every row shows the last learning rate instead of the one used for its step.
Contradicts the Logging sentence: "lr": optimizer.param_groups[0]["lr"] used for this step, as a float (read it
before the scheduler steps; a tensor learning rate is updated in place by the scheduler, so log its value, not the
tensor)" (the words from "as a float" on were added in round 24: two correct examples had logged the tensor).
Goes wrong on: AdamW with lr=torch.tensor(0.05) and ExponentialLR, two or more steps."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ('        lr = float(self.optimizer.param_groups[0]["lr"])\n',
     '        lr = self.optimizer.param_groups[0]["lr"]\n'))}
