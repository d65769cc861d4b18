"""Known-wrong Trainer (held-out round 12): counts micro-batches over the whole run instead of within the
epoch, so after an epoch whose length is not a multiple of accum_steps the groups of the next epoch are
shifted. The text: step "when batch_in_epoch (batches done in this epoch ...) is a multiple of
accum_steps or equals len(train_loader)"."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "                if self.batch_in_epoch % self.accum_steps == 0 or self.batch_in_epoch == n_batches:",
    "                self._micro = getattr(self, '_micro', 0) + 1\n"
    "                if self._micro % self.accum_steps == 0 or self.batch_in_epoch == n_batches:"))}
EXPECT = {"trainer": "fail"}
