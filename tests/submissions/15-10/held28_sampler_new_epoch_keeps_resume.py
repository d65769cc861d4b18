"""Wrong (held-out round 28): set_epoch(e) with a NEW epoch resets epoch and pos but keeps the resume position
that load_state_dict left pending. Section 2: "load_state_dict(sd) makes the next pass start at pos in THAT
epoch's permutation" and "set_epoch(e) selects the epoch": a pending position belongs to the saved epoch only.
Input: s.load_state_dict({"epoch": 1, "pos": 4, ...}); s.set_epoch(2); list(s) gives only the last
num_samples - 4 indices of epoch 2's order (expected all of them), and s.state_dict() right after set_epoch(2)
reports pos 4 (expected 0)."""
from course.grading.class_run.submissions import edited

EXPECT = {"sampler": "fail"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("            self.pos = 0\n            self._resume_pos = None\n",
     "            self.pos = 0\n"))}
