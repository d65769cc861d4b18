"""Known-wrong Trainer (round 14s, the resume checks read one interruption only): train_epoch numbers the batches
right (batch_idx and the accumulation groups continue from the restored batch_in_epoch), but stores
batch_in_epoch as the batches of *this pass* (i + 1). A run resumed mid-epoch and interrupted again in the same
epoch saves a batch_in_epoch that is too small; resumed from that checkpoint, the epoch's last, short group
(5 batches in groups of 2, 2 and 1) never steps. The text: batch_in_epoch is "batches done in this epoch", and a
run interrupted at any step resumes bit-exactly (a resumed run is a run)."""
from course.grading.class_run.submissions import edited

EXPECT = {"resume": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("            for batch in iterator:\n                batch_idx = self.batch_in_epoch\n",
     "            start = self.batch_in_epoch\n"
     "            for i, batch in enumerate(iterator):\n                batch_idx = start + i\n"),
    ("                self.batch_in_epoch += 1\n"
     "                if self.batch_in_epoch % self.accum_steps == 0 or self.batch_in_epoch == n_batches:\n",
     "                self.batch_in_epoch = i + 1  # the batches of this pass\n"
     "                if (batch_idx + 1) % self.accum_steps == 0 or batch_idx + 1 == n_batches:\n"))}
