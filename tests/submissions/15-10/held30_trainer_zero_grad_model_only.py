"""Wrong (held-out round 30): the Trainer drops gradients with self.model.zero_grad(set_to_none=True) (at the
start of fit and after every step) instead of optimizer.zero_grad(set_to_none=True). Section 6 ("Starting"):
fit "drops gradients left from before with optimizer.zero_grad(set_to_none=True)" and "After every optimizer
step, zero the gradients with set_to_none=True too". Input: an optimizer that also trains a tensor outside the
model (a learnable temperature used by loss_fn, or a second module): its gradient is never cleared, so it
accumulates across steps (and a stale gradient from before fit is used by the first step)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        self.model.train()\n        self.optimizer.zero_grad(set_to_none=True)\n",
     "        self.model.train()\n        self.model.zero_grad(set_to_none=True)\n"),
    ("            self.optimizer.step()\n        self.optimizer.zero_grad(set_to_none=True)\n",
     "            self.optimizer.step()\n        self.model.zero_grad(set_to_none=True)\n"))}
