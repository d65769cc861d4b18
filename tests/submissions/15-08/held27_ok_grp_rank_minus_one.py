"""Correct, written unusually: group_sums makes every group first (a list comprehension, in the order of
`groups`, on every rank), finds its own by `dist.get_rank(group) != -1` (torch's documented answer for a
rank outside the group) instead of searching the lists, and copies x with `x.new_empty(x.shape).copy_(x)`
(a contiguous new tensor of x's shape, dtype and device; copy_ keeps -0.0, NaN and inf bit for bit)."""

EXPECT = {"group_sums": "pass"}
CELLS = {"group_sums_impl": '''def group_sums(x: torch.Tensor, groups: list[list[int]]) -> torch.Tensor:
    ### BEGIN SOLUTION
    made = [dist.new_group(list(ranks)) for ranks in groups]
    (mine,) = [g for g in made if dist.get_rank(g) != -1]
    out = x.new_empty(x.shape).copy_(x)
    dist.all_reduce(out, op=dist.ReduceOp.SUM, group=mine)
    return out
    ### END SOLUTION
'''}
