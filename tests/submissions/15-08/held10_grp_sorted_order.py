"""Held-out round 10: group_sums creates the groups sorted by their smallest rank instead of in the order of
groups. Every rank sorts the same way, so the groups agree and the sums are right, but a caller that creates
groups after this (or numbers them as listed) disagrees about which group is which. The text says: create one
group per entry with dist.new_group, on every rank, in the order of groups."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    for ranks in groups:\n", "    for ranks in sorted(groups, key=min):  # a canonical order\n"))}
