"""Held-out round 13: set_epoch always sets pos = 0 (it keeps a pending resume position for the same
epoch). Called with the epoch the sampler already has, in the middle of a pass, it forgets how far the
pass got: state_dict() then says pos 0. The text: "if `e` is the epoch it already has, it changes
nothing"."""
from course.grading.class_run.submissions import edited

EXPECT = {"sampler": "fail"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("        if int(epoch) != self.epoch:\n            self.epoch = int(epoch)\n            self.pos = 0\n"
     "            self._resume_pos = None\n",
     "        if int(epoch) != self.epoch:\n            self.epoch = int(epoch)\n"
     "            self._resume_pos = None\n        self.pos = 0\n"))}
