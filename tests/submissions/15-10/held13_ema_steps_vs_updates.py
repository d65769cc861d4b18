"""Held-out round 13: the EMA decides "has global_step advanced?" by comparing it with num_updates,
which is right only when the callback started at global_step 0. Attached to a trainer that has
already taken steps (a resumed run that adds the callback, a second fit), it updates on every batch,
accumulation batches included, until num_updates catches up. The text: it updates "only when
`trainer.global_step` has advanced since its last update"."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "fail"}
CELLS = {"callbacks_impl": edited(
    "15-10", "callbacks_impl",
    ("        if trainer.global_step == self.last_step:\n",
     "        if trainer.global_step <= self.num_updates:\n"))}
