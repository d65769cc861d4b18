"""Blind batch of #19 (2026-11-26), unusual but correct: reduce_scatter_shards through a padded
dist.reduce_scatter_tensor (FSDP's own collective; the other example all-reduces), gather_shards through
F.pad and all_gather_into_tensor; ring_pass with plain isend/irecv (no even/odd order, no batching);
ring_all_reduce keeping a list of separate chunk tensors that are reassigned, not updated in place;
tree_broadcast written MPICH-style with a bit mask (a contiguous copy on a strided root); group_sums
finding its group by index. Every task must pass."""
EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
CELLS = {
"ring_pass_impl": '''
def ring_pass(x: torch.Tensor) -> torch.Tensor:
    me, world = dist.get_rank(), dist.get_world_size()
    incoming = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    outgoing = x.contiguous()
    reqs = [dist.irecv(incoming, (me - 1) % world), dist.isend(outgoing, (me + 1) % world)]
    for q in reqs:
        q.wait()
    return incoming
''',
"ring_all_reduce_impl": '''
def _exchange(out_piece, in_like, me, world):
    got = torch.empty_like(in_like)
    reqs = [dist.irecv(got, (me - 1) % world), dist.isend(out_piece, (me + 1) % world)]
    for q in reqs:
        q.wait()
    return got


def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:
    me, world = dist.get_rank(), dist.get_world_size()
    pieces = [p.clone() for p in torch.tensor_split(x.flatten(), world)]
    for s in range(world - 1):
        k_out, k_in = (me - s) % world, (me - s - 1) % world
        pieces[k_in] = pieces[k_in] + _exchange(pieces[k_out], pieces[k_in], me, world)
    for s in range(world - 1):
        k_out, k_in = (me + 1 - s) % world, (me - s) % world
        pieces[k_in] = _exchange(pieces[k_out], pieces[k_in], me, world)
    return torch.cat(pieces).reshape(x.shape) if pieces else x.clone()
''',
"tree_broadcast_impl": '''
def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:
    me, world = dist.get_rank(), dist.get_world_size()
    v = (me - src) % world
    mask = 1
    while mask < world:
        if v & mask:
            dist.recv(x, (v - mask + src) % world)
            break
        mask <<= 1
    payload = x if x.is_contiguous() else x.contiguous()
    mask >>= 1
    while mask > 0:
        if v + mask < world:
            dist.send(payload, (v + mask + src) % world)
        mask >>= 1
    return x
''',
"shards_impl": '''
def _shard_sizes(numel: int, world: int) -> list[int]:
    return [numel // world + (1 if r < numel % world else 0) for r in range(world)]


def gather_shards(shard: torch.Tensor, numel: int) -> torch.Tensor:
    world = dist.get_world_size()
    sizes = _shard_sizes(numel, world)
    width = max(sizes)
    mine = torch.nn.functional.pad(shard.reshape(-1), (0, width - shard.numel()))
    everything = torch.empty(world * width, dtype=shard.dtype, device=shard.device)
    dist.all_gather_into_tensor(everything, mine.contiguous())
    rows = everything.view(world, width)
    return torch.cat([rows[r, :sizes[r]] for r in range(world)])


def reduce_scatter_shards(full: torch.Tensor) -> torch.Tensor:
    world, me = dist.get_world_size(), dist.get_rank()
    sizes = _shard_sizes(full.numel(), world)
    width = max(sizes)
    padded = torch.zeros(world, width, dtype=full.dtype, device=full.device)
    for r, piece in enumerate(torch.tensor_split(full, world)):
        padded[r, :piece.numel()] = piece
    out = torch.empty(width, dtype=full.dtype, device=full.device)
    dist.reduce_scatter_tensor(out, padded.reshape(-1))
    return out[:sizes[me]].clone()
''',
"group_sums_impl": '''
def group_sums(x: torch.Tensor, groups: list[list[int]]) -> torch.Tensor:
    made = [dist.new_group(ranks=list(g)) for g in groups]
    which = [i for i, g in enumerate(groups) if dist.get_rank() in g][0]
    result = x.detach().clone()
    dist.all_reduce(result, op=dist.ReduceOp.SUM, group=made[which])
    return result
''',
}
