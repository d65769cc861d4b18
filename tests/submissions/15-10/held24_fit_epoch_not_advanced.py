"""Wrong (held-out round 24): fit loops `for epoch in range(self.epoch, self.max_epochs): self.epoch = epoch ...`,
so after the last epoch trainer.epoch stays at the finished epoch (max_epochs - 1)
 with batch_in_epoch reset to 0, instead of moving on. A checkpoint written after fit() returned
(allowed: "Where may a checkpoint be written? ... or after fit() returned") then claims the finished epoch has not
started: a run resumed from it fires on_epoch_start, validates again (EarlyStopping counts one more validation
without improvement, val_history grows) and fires on_epoch_end for an epoch that is over; continuing with a
larger max_epochs can then stop early. Contradicts the lifecycle of section 0 (each epoch once: on_epoch_start
... on_epoch_end, then the next) and "fit(ckpt_path) ... runs the usual loop starting from the restored epoch and
batch_in_epoch"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        while self.epoch < self.max_epochs and not self.should_stop and not self.steps_done():\n"
     "            if not self.train_epoch():\n",
     "        for epoch in range(self.epoch, self.max_epochs):\n"
     "            self.epoch = epoch\n"
     "            if self.should_stop or self.steps_done():\n"
     "                break\n"
     "            if not self.train_epoch():\n"),
    ("            self.call(\"on_epoch_end\")\n            self.epoch += 1\n            self.batch_in_epoch = 0\n",
     "            self.call(\"on_epoch_end\")\n            self.batch_in_epoch = 0\n"))}
