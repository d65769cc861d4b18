"""Wrong (held-out round 30): ResumableRandomSampler.permutation(epoch) also records `epoch` as the sampler's
epoch (self.epoch = epoch). Section 2: permutation(epoch) is "a pure function of seed and epoch", and only
set_epoch selects the epoch. Input: s = ResumableRandomSampler(10, seed=3); s.permutation(1); list(s) gives
epoch 1's order instead of epoch 0's; and set_epoch(1) afterwards "changes nothing" (pos and a pending
resume are not reset). Inside the Trainer (which only asks for self.epoch) nothing changes."""
from course.grading.class_run.submissions import edited

EXPECT = {"sampler": "fail"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))\n",
     "        self.epoch = int(epoch)\n"
     "        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))\n"))}
