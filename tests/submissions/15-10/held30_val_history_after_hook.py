"""Wrong (held-out round 30): Trainer.validate appends the {"step", "epoch", "val_loss"} row to
self.val_history only after firing on_validation_end. Section 6 ("Validation") gives the order: store
metrics in self.metrics, append to self.val_history, switch back to train(), fire on_validation_end. Input: a
callback that reads trainer.val_history[-1] in on_validation_end (a logger, a plotting callback): at the first
validation it gets an IndexError (empty list), later it sees the previous epoch's row."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        self.val_history.append({\"step\": self.global_step, \"epoch\": self.epoch, **metrics})\n"
     "        self.call(\"on_validation_end\", metrics)\n",
     "        self.call(\"on_validation_end\", metrics)\n"
     "        self.val_history.append({\"step\": self.global_step, \"epoch\": self.epoch, **metrics})\n"))}
