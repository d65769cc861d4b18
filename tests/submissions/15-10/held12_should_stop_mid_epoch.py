"""Known-wrong Trainer (held-out round 12): leaves the batch loop as soon as a callback sets should_stop
(in on_batch_end), so the epoch ends early. The lifecycle: "stop if trainer.should_stop" is checked after
on_epoch_end, once the epoch is complete."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "                if self.steps_done():\n                    return False\n",
    "                if self.steps_done():\n                    return False\n"
    "                if self.should_stop:\n                    break\n"))}
EXPECT = {"trainer": "fail"}
