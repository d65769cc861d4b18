"""Known-wrong Trainer.validate (round 16): stacks the validation losses as tensors and takes their mean
in the losses' own dtype. Under precision="bf16" (or "fp16") a loss_fn that returns a half-precision
loss gets its mean rounded to bfloat16: not "a plain mean of the per-batch losses" (a narrow dtype inside
a statistic)."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "                    losses.append(float(self.loss_fn(self.model, self.to_device(batch))))\n",
    "                    losses.append(self.loss_fn(self.model, self.to_device(batch)).detach().reshape(()))\n"), (
    '        metrics = {"val_loss": sum(losses) / len(losses) if losses else float(\"nan\")}\n',
    '        metrics = {"val_loss": float(torch.stack(losses).mean()) if losses else float(\"nan\")}\n'))}
EXPECT = {"trainer": "fail"}
