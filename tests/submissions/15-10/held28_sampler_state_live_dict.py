"""Wrong (held-out round 28): state_dict() returns the SAME dict object at every call, updated in place (a live
view of the sampler's state) instead of a snapshot. Section 2: "state_dict() returns plain data
({"epoch": ..., "pos": ..., ...})", the position at the time of the call. Input: take sd = s.state_dict() after
4 of 10 indices, draw 3 more and call s.state_dict() again (as a Trainer saving a second checkpoint does): sd now
says pos 7, and a sampler resumed from sd (kept in memory) skips 3 indices."""
from course.grading.class_run.submissions import edited

EXPECT = {"sampler": "fail"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("        return {\"epoch\": self.epoch, \"pos\": pos, \"seed\": self.seed, \"num_samples\": self.num_samples}\n",
     "        sd = self.__dict__.setdefault(\"_live_state\", {})\n"
     "        sd.update(epoch=self.epoch, pos=pos, seed=self.seed, num_samples=self.num_samples)\n"
     "        return sd\n"))}
