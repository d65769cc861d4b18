"""Wrong (held-out round 21): train_epoch divides each batch's loss by the size of its accumulation group: by
accum_steps in a full group, but by the number of batches actually left in the short last group of an epoch
(len(train_loader) not a multiple of accum_steps). That step then uses the mean of its batches instead of the
text's sum / accum_steps, and the weights differ from the specified run. Contradicts "Divide each batch's loss
by accum_steps before backward"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("                scaled = loss / self.accum_steps\n",
     "                group_start = self.batch_in_epoch - self.batch_in_epoch % self.accum_steps\n"
     "                scaled = loss / min(self.accum_steps, n_batches - group_start)  # this group's real size\n"))}
