"""Known-wrong malloc (round 18): when no cached block fits, it first hands back every wholly free segment
(both pools) and then creates the new one, "to keep reserved low". The text: a dead tensor's block is not
returned to CUDA; only empty_cache (or an allocation that would otherwise fail, which the model leaves out)
returns memory, so reserved must stay at its high-water mark until empty_cache."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ("        if best is None:\n            seg = Segment(",
     "        if best is None:\n"
     "            self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]\n"
     "            seg = Segment("))}
EXPECT = {"allocator_model": "fail"}
