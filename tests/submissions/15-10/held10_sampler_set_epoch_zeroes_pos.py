"""Held-out round 10: set_epoch always sets pos to 0 (it keeps the pending resume position only when the epoch
is unchanged), and state_dict reports pos; so a sampler loaded from {"epoch": 2, "pos": 5}, told set_epoch(2)
as the Trainer does, and saved again before its next pass reports pos 0, and a sampler loaded from that state
restarts the epoch. The text says set_epoch with the epoch the sampler already has "changes nothing"."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "fail", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("        if int(epoch) != self.epoch:\n            self.epoch = int(epoch)\n            self.pos = 0\n"
     "            self._resume_pos = None\n",
     "        if int(epoch) != self.epoch:\n            self._resume_pos = None\n"
     "        self.epoch = int(epoch)\n        self.pos = 0\n"),
    ("        pos = self._resume_pos if self._resume_pos is not None else self.pos\n", "        pos = self.pos\n"))}
