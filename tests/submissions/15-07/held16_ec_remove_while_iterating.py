"""Known-wrong empty_cache (round 16): it removes fully free segments from the list it is iterating over, so
the segment right after a released one is skipped. Rule 7 says empty_cache releases *every* segment that is
one free block; two such segments in a row leave the second one reserved."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ("        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]",
     "        for s in self.segments:\n"
     "            if len(s.blocks) == 1 and s.blocks[0].owner is None:\n"
     "                self.segments.remove(s)"))}
EXPECT = {"empty_cache": "fail", "allocator_model": "pass"}
JUDGE_PASS = True  # the edited cell is allocator_impl; rules 1-6 and 8 stay right
