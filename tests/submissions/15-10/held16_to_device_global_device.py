"""Known-wrong Trainer.to_device (round 16): moves tensors to the notebook's DEVICE (pick_device()'s
choice) instead of self.device. Right whenever the Trainer runs on the machine's default device; wrong
for a Trainer built with another device= (the text: "every batch is moved there too", there = the
Trainer's device)."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "            return batch.to(self.device)\n", "            return batch.to(DEVICE)\n"))}
EXPECT = {"trainer": "fail"}
