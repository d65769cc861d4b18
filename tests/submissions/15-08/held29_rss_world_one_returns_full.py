"""Wrong: "Neither function modifies its input, and each call returns a new tensor." With one rank the
sum over ranks is `full` and its only shard is all of it, so this version returns `full` itself when the
world has one rank: the caller gets its own input back (writing into the result changes `full`). Worlds
of 2 or more ranks run the reference."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    sizes = _shard_sizes(full.numel(), world)\n",
     "    if world == 1:  # one rank: the sum is full, the shard is all of it\n"
     "        return full\n"
     "    sizes = _shard_sizes(full.numel(), world)\n"))}
