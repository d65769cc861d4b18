"""group_sums returns x itself for a group of one rank (the text asks for a copy); larger groups are
all-reduced on a clone, so x is never changed."""
EXPECT = {"group_sums": "fail"}
CELLS = {
    "group_sums_impl": '''
def group_sums(x, groups):
    rank = dist.get_rank()
    mine, size = None, 0
    for ranks in groups:
        g = dist.new_group(ranks)
        if rank in ranks:
            mine, size = g, len(ranks)
    if size == 1:
        return x
    out = x.clone()
    dist.all_reduce(out, group=mine)
    return out
''',
}
