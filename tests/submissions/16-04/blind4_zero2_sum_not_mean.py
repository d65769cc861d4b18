"""The reduce-scattered shard is the sum over the ranks and is used as it is (the text says "summed" and
the writer stopped there). Breaks: "the same result as `zero1_step`: after every call of a run of several
steps, every rank's `params` equal single-process `torch.optim.AdamW` on the mean gradient"."""
EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world, rank = dist.get_world_size(), dist.get_rank()
    n = sum(p.numel() for p in params)
    k = -(-n // world)
    flat_g = torch.cat([p.grad.reshape(-1) for p in params] + [params[0].grad.new_zeros(world * k - n)])
    g_shard = flat_g.new_empty(k)
    dist.reduce_scatter_single(g_shard, flat_g)
    with torch.no_grad():
        p_shard = flatten_shard([p.detach() for p in params], world, rank)
        _adamw_shard(p_shard, g_shard, state, lr, betas, eps, weight_decay)
        full = p_shard.new_empty(world * k)
        dist.all_gather_single(full, p_shard)
    _write_back(params, full)
'''}
