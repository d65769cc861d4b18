"""Wrong (held-out round 24): validate accumulates the batch losses in a float32 tensor on the device (to avoid
one host sync per batch) and converts once at the end: total = zeros(()) ; total += loss.float(); val_loss =
float(total / n). The mean of the losses as Python floats is finite for any finite float32 losses, but the
float32 running sum overflows: two validation batches with losses 3e38 give val_loss inf instead of 3e38 (and
every mean is rounded to float32). Contradicts "average loss_fn over the validation batches (a plain mean of the
per-batch losses)" and "the logged loss and val_loss are plain means of the batch losses as floats"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        losses = []\n        with torch.no_grad():\n            for batch in self.val_loader:\n"
     "                with self.autocast():\n"
     "                    losses.append(float(self.loss_fn(self.model, self.to_device(batch))))\n"
     "        self.model.train()\n"
     "        metrics = {\"val_loss\": sum(losses) / len(losses) if losses else float(\"nan\")}\n",
     "        total, count = torch.zeros((), device=self.device), 0\n        with torch.no_grad():\n"
     "            for batch in self.val_loader:\n"
     "                with self.autocast():\n"
     "                    total += self.loss_fn(self.model, self.to_device(batch)).float()\n"
     "                count += 1\n"
     "        self.model.train()\n"
     "        metrics = {\"val_loss\": float(total / count) if count else float(\"nan\")}\n"))}
