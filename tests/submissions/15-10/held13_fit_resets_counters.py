"""Held-out round 13: fit() starts every call from zero (global_step, epoch, batch_in_epoch, history)
before it loads ckpt_path. fit(ckpt_path) resumes right, but a trainer restored with load_checkpoint /
load_state_dict and then fit(), or fit() called again after max_steps was reached, trains from scratch.
The text: "A run that has already reached `max_steps` when `fit` starts (`max_steps=0`, or resumed from
its last step) takes no step at all."."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        if ckpt_path is not None:\n            self.load_checkpoint(ckpt_path)\n        self.model.train()",
     "        self.global_step, self.epoch, self.batch_in_epoch = 0, 0, 0\n"
     "        self.history, self.val_history, self._batch_losses = [], [], []\n"
     "        if ckpt_path is not None:\n            self.load_checkpoint(ckpt_path)\n        self.model.train()"))}
