"""Wrong: "Return the element-wise sum of `x` over the ranks of this rank's own group, computed with
`dist.all_reduce` on that group". When this rank's group is the whole world this version all-reduces on the
default group instead ("it is the same ranks"); the group it made is never used."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    dist.all_reduce(out, group=mine)\n",
     "    if any(rank in r and len(r) == dist.get_world_size() for r in groups):\n"
     "        dist.all_reduce(out)  # the whole world: the default group has the same ranks\n"
     "    else:\n"
     "        dist.all_reduce(out, group=mine)\n"))}
