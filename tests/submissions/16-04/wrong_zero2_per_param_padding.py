"""ZeRO-2 that reduce-scatters each gradient separately, each padded to a multiple of W (a shard of every
tensor, as a per-parameter FSDP would): the values are right, but the padding of every tensor travels too, so
a rank sends more than one flat buffer needs."""
EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    rank, world = dist.get_rank(), dist.get_world_size()
    mine_g, mine_p, sizes = [], [], []
    for p in params:
        full = torch.cat([flatten_shard([p.grad], world, r) for r in range(world)])
        g = full.new_empty(full.numel() // world)
        dist.reduce_scatter_single(g, full)
        mine_g.append(g / world)
        mine_p.append(flatten_shard([p.detach()], world, rank))
        sizes.append(g.numel())
    shard, g = torch.cat(mine_p), torch.cat(mine_g)
    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)
    start = 0
    with torch.no_grad():
        for p, k in zip(params, sizes):
            full = shard.new_empty(world * k)
            dist.all_gather_single(full, shard[start:start + k].contiguous())
            p.copy_(full[: p.numel()].view_as(p))
            start += k
'''}
