"""Wrong (held-out round 26): load_state_dict only records the pending resume position (self._resume_pos) and
leaves self.pos alone, and state_dict() reports self.pos. A sampler loaded from a state and saved again before
its next pass reports pos 0 (a fresh sampler's pos), so the pending position is lost: "pos: the indices handed
out, plus the position a resumed pass started from, so that a second interruption of the same epoch resumes
right" and "load_state_dict(sd) makes the next pass start at pos". Input: ResumableRandomSampler(10, seed=3)
loaded from {"epoch": 0, "pos": 6, ...}; state_dict() gives pos 0, so a checkpoint written right after a resume
(a run resumed from its final step with max_steps reached saves at once; or any save before the first batch)
replays the whole epoch when resumed."""
from course.grading.class_run.submissions import edited

EXPECT = {"sampler": "fail"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("        pos = self._resume_pos if self._resume_pos is not None else self.pos\n"
     "        return {\"epoch\": self.epoch, \"pos\": pos,",
     "        return {\"epoch\": self.epoch, \"pos\": self.pos,"),
    ("        self.pos = int(state[\"pos\"])\n", ""))}
