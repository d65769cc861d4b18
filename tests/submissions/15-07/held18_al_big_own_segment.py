"""Known-wrong malloc (round 18): requests whose rounded size is 10 MiB or more skip the cache and always get
a new segment ("bigger requests get their own segment", read from the kRoundLarge comment). Rule 4: before
allocating a new segment the allocator looks for the smallest free cached block of the request's pool -
a freed 20 MiB block serves a later 12 MiB request."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ("        for seg in self.segments:\n            if seg.pool != pool:\n",
     "        for seg in (self.segments if size < MIN_LARGE_ALLOC else []):  # 10 MiB+: own segment\n"
     "            if seg.pool != pool:\n"))}
EXPECT = {"allocator_model": "fail"}
