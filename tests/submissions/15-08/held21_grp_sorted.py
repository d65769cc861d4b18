"""Wrong: "Create one group per entry with `dist.new_group`, on every rank, in the order of `groups`". This
version creates the groups sorted by their lowest rank ("so that every rank agrees on the order"): for
groups listed out of order, such as [[3], [2, 0, 1]], the groups are made in another order than the list's."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
CELLS = {"group_sums_impl": edited(
    "15-08", "group_sums_impl",
    ("    for ranks in groups:\n",
     "    for ranks in sorted(groups, key=min):  # a canonical order every rank agrees on\n"))}
