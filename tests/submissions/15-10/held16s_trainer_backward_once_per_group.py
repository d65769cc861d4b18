"""Known-wrong Trainer (round 16, strengthening: call order): keeps each batch's scaled loss and runs ONE
backward of their sum when the group steps ("fewer backward calls"). The step's gradient is the same up to
rounding, but the text's lifecycle runs "backward of loss / accum_steps" for every batch before
on_after_backward, which here sees no gradient (or the previous group's), and every group's graphs stay in
memory until the step."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "                scaled.backward()\n",
    "                self._group = getattr(self, '_group', []) + [scaled]  # one backward per group, below\n"), (
    "                    self.optimizer_step()\n",
    "                    sum(self._group).backward()\n                    self._group = []\n"
    "                    self.optimizer_step()\n"))}
EXPECT = {"trainer": "fail"}
