"""Held-out round 13: set_epoch to another epoch drops the pending resume position but leaves `pos` at
the old epoch's count (the next pass sets it anyway). Between set_epoch and the first batch (the
Trainer fires on_epoch_start there) state_dict() says {"epoch": e+1, "pos": num_samples}: a checkpoint
written then resumes with an empty epoch. The text: "it counts its position in the current epoch's
permutation (pos)"; set_epoch "selects the epoch"."""
from course.grading.class_run.submissions import edited

EXPECT = {"sampler": "fail"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("            self.epoch = int(epoch)\n            self.pos = 0\n",
     "            self.epoch = int(epoch)\n"))}
