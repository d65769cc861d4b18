"""Wrong (held-out round 21): validate runs loss_fn in eval mode under no_grad but outside the autocast context:
with precision "bf16" or "fp16" the validation forward runs in float32 while training ran in reduced precision,
so val_loss is not the loss of the model as trained (and costs the full-precision time and memory). Contradicts
"Validation (validate): in eval() mode and under torch.no_grad() (and the same autocast)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("                with self.autocast():\n"
     "                    losses.append(float(self.loss_fn(self.model, self.to_device(batch))))\n",
     "                losses.append(float(self.loss_fn(self.model, self.to_device(batch))))\n"))}
