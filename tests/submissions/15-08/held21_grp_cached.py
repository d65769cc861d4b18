"""Wrong: "Create one group per entry with `dist.new_group`, on every rank" and "Return the element-wise
sum of `x` over the ranks of this rank's own group". This version creates the groups on its first call
and keeps its own group in a module-level variable (new_group is slow, the comment says); a second call
in the same process with other `groups` sums over the first call's group."""

EXPECT = {"group_sums": "fail"}
CELLS = {"group_sums_impl": (
    "_MY_GROUP = []\n\n\n"
    "def group_sums(x: torch.Tensor, groups: list[list[int]]) -> torch.Tensor:\n"
    "    rank = dist.get_rank()\n"
    "    if not _MY_GROUP:  # new_group is a collective over the world: do it once\n"
    "        for ranks in groups:\n"
    "            group = dist.new_group(ranks)\n"
    "            if rank in ranks:\n"
    "                _MY_GROUP.append(group)\n"
    "    out = x.clone()\n"
    "    dist.all_reduce(out, group=_MY_GROUP[0])\n"
    "    return out\n")}
