"""Writes its own AdamW update with moments made by torch.zeros(k): float32 whatever the parameters'
dtype, so float64 runs keep their moments rounded to float32. Breaks: "every rank's `params` equal
single-process `torch.optim.AdamW` on the mean gradient" (AdamW keeps float64 moments for float64
parameters) and "Make every tensor you create on the parameters' device" (dtype follows the same rule)."""
EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world, rank = dist.get_world_size(), dist.get_rank()
    n = sum(p.numel() for p in params)
    k = -(-n // world)
    flat_g = torch.cat([p.grad.reshape(-1) for p in params] + [params[0].grad.new_zeros(world * k - n)])
    g_shard = flat_g.new_empty(k)
    dist.reduce_scatter_single(g_shard, flat_g)
    g_shard /= world
    with torch.no_grad():
        p_shard = flatten_shard([p.detach() for p in params], world, rank)
        if not state:
            state["step"] = 0
            state["m"] = torch.zeros(k, device=p_shard.device)
            state["v"] = torch.zeros(k, device=p_shard.device)
        state["step"] += 1
        t, (b1, b2) = state["step"], betas
        state["m"].mul_(b1).add_(g_shard, alpha=1 - b1)
        state["v"].mul_(b2).addcmul_(g_shard, g_shard, value=1 - b2)
        p_shard.mul_(1 - lr * weight_decay)
        denom = state["v"].sqrt() / math.sqrt(1 - b2 ** t) + eps
        p_shard.sub_(lr / (1 - b1 ** t) * state["m"] / denom)
        full = p_shard.new_empty(world * k)
        dist.all_gather_single(full, p_shard)
    _write_back(params, full)
'''}
