"""group_sums creates its groups in sorted order; every rank sorts the same way, so nothing deadlocks and
the sums are right, but the text asks for the groups "in the order of groups" (groups are numbered in
creation order). Found by a blind batch (issue #19, second truly blind round); caught by
test_group_sums_new_group_per_entry, the probe now recording the ranks of each new_group call in order."""
EXPECT = {"group_sums": "fail"}
BASE = "reference"

CELLS = {
    'group_sums_impl': '\ndef group_sums(x, groups):\n    me = dist.get_rank()\n    mine = None\n    for g in sorted(sorted(g) for g in groups):\n        h = dist.new_group(g)\n        if me in g:\n            mine = h\n    out = x.clone()\n    dist.all_reduce(out, group=mine)\n    return out\n',
}
