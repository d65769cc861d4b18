"""Known-wrong Trainer.validate (held-out round 12): restores the mode the model had before (a common
idiom) instead of switching to train(), so validate() called on a model in eval() mode leaves it in eval.
The text: "... append {...} to self.val_history, switch back to train(), fire on_validation_end"."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    "        self.model.eval()\n        losses = []\n",
    "        was_training = self.model.training\n        self.model.eval()\n        losses = []\n"), (
    "        self.model.train()\n        metrics = ",
    "        self.model.train(was_training)\n        metrics = "))}
EXPECT = {"trainer": "fail"}
