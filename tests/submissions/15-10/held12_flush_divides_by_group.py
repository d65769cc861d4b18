"""Known-wrong Trainer (held-out round 12): divides each loss by the size of its accumulation group, so the
short group at the end of an epoch (len(train_loader) not a multiple of accum_steps) gets a larger
gradient than the text asks. The text: "Divide each batch's loss by accum_steps before backward"."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "                scaled = loss / self.accum_steps\n",
    "                group_start = (self.batch_in_epoch // self.accum_steps) * self.accum_steps\n"
    "                scaled = loss / min(self.accum_steps, n_batches - group_start)\n"))}
EXPECT = {"trainer": "fail"}
