"""group_sums never calls dist.new_group for a group of one rank ("it never communicates"); every rank
skips the same entries, so the sums all come out right, but the text asks for one group per entry of
groups, created on every rank. Found by a blind batch (issue #19); caught by
test_group_sums_new_group_per_entry (the probe reads how many groups each rank created)."""
EXPECT = {"group_sums": "fail"}
CELLS = {
    "group_sums_impl": '''
def group_sums(x, groups):
    rank = dist.get_rank()
    mine = None
    for members in groups:
        if len(members) == 1:
            continue
        handle = dist.new_group(members)
        if rank in members:
            mine = handle
    total = x.clone()
    if mine is not None:
        dist.all_reduce(total, group=mine)
    return total
''',
}
