"""Known-wrong stats (round 16): allocated is a running counter; malloc adds the block actually handed out,
but free subtracts the *rounded request* it remembered. Rule 5 says an unsplit block counts whole in
memory_allocated (19 MiB -> a 20 MiB block), so after freeing such a block allocated stays 1 MiB too high."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ("        self.next_sid = 0\n",
     "        self.next_sid = 0\n        self.allocated = 0\n        self.asked = {}\n"),
    ("        blk.owner = name\n        self.where[name] = (seg, blk)\n",
     "        blk.owner = name\n        self.where[name] = (seg, blk)\n"
     "        self.allocated += blk.size\n        self.asked[name] = size\n"),
    ("        seg, blk = entry\n        blk.owner = None\n",
     "        seg, blk = entry\n        blk.owner = None\n        self.allocated -= self.asked.pop(name)\n"),
    ('            "allocated": sum(b.size for s in self.segments for b in s.blocks if b.owner is not None),',
     '            "allocated": self.allocated,'))}
EXPECT = {"allocator_model": "fail"}
