"""Known-wrong Trainer.train_epoch (round 18): divides each loss by the size of ITS accumulation group,
so a shorter last group of the epoch (5 batches, accum_steps=2: the fifth batch alone) is a true mean
over its batches instead of loss / accum_steps: against "Divide each batch's loss by accum_steps before
backward"."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "                scaled = loss / self.accum_steps\n",
    "                group_start = (self.batch_in_epoch // self.accum_steps) * self.accum_steps\n"
    "                scaled = loss / min(self.accum_steps, n_batches - group_start)  # the group's real size\n"))}
EXPECT = {"trainer": "fail"}
