"""Held-out round 12 (group_sums, "Create one group per entry with dist.new_group, on every rank" and "the sum
... over the ranks of this rank's own group", on every call): new_group looks expensive, so the groups are made
once and this rank's group is kept in a module-level cache; a second call with a different `groups` reuses the
first call's group (and calls no new_group), so it sums over the wrong ranks."""
from course.grading.class_run.submissions import edited

EXPECT = {"group_sums": "fail"}
BASE = "reference"
CELLS = {"group_sums_impl": edited("15-08", "group_sums_impl", (
    "    rank = dist.get_rank()\n    mine = None\n    for ranks in groups:\n        group = dist.new_group(ranks)\n"
    "        if rank in ranks:\n            mine = group\n",
    "    rank = dist.get_rank()\n    if not _GROUP_CACHE:\n        for ranks in groups:\n"
    "            group = dist.new_group(ranks)\n            if rank in ranks:\n                _GROUP_CACHE.append(group)\n"
    "    mine = _GROUP_CACHE[0]\n",
), (
    "def group_sums(x: torch.Tensor, groups: list[list[int]]) -> torch.Tensor:\n",
    "_GROUP_CACHE = []\n\n\ndef group_sums(x: torch.Tensor, groups: list[list[int]]) -> torch.Tensor:\n",
))}
