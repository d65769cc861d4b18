"""group_sums all-reduces x itself (so x is changed on every rank) instead of a copy."""
EXPECT = {"group_sums": "fail"}
CELLS = {
    "group_sums_impl": '''
def group_sums(x, groups):
    rank = dist.get_rank()
    mine = None
    for ranks in groups:
        g = dist.new_group(ranks)
        if rank in ranks:
            mine = g
    dist.all_reduce(x, group=mine)
    return x
''',
}
