"""Known-wrong CheckpointCallback (round 18, second pass; not counted): records the saved step AFTER taking
trainer.state_dict(), so each checkpoint holds a callback state that says its own step was not saved yet. A
run resumed from last.pt in the middle of an accumulation group (its next batch still ends at that step)
writes step-N.pt and last.pt again from that batch, a mid-group state: against "when trainer.global_step ...
has not been saved yet" (and a checkpoint is written "right after a step")."""
from course.grading.class_run.submissions import edited

CELLS = {"checkpoint_impl": edited("15-10", "checkpoint_impl", (
    "        self.last_saved_step = step\n        ckpt = trainer.state_dict()\n",
    "        ckpt = trainer.state_dict()\n        self.last_saved_step = step\n"))}
EXPECT = {"checkpoint": "fail"}
