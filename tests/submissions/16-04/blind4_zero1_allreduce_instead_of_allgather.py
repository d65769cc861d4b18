"""The updated shards are brought back by writing this rank's shard into a zero buffer and all-reducing
it, not by an all-gather (twice the traffic of the gather). Breaks: "Bring the updated shards to every rank
with `dist.all_gather` (or `dist.all_gather_single`)."
"""
EXPECT = {"zero1": "fail"}
CELLS = {"zero1_impl": '''
def _adamw_shard(p, g, state, lr, betas, eps, weight_decay):
    # one AdamW step of the flat shard p with gradient g, moments in state (torch.optim.AdamW's formula)
    if "step" not in state:
        state["step"] = 0
        state["exp_avg"] = torch.zeros_like(p)
        state["exp_avg_sq"] = torch.zeros_like(p)
    state["step"] += 1
    t, (b1, b2) = state["step"], betas
    m, v = state["exp_avg"], state["exp_avg_sq"]
    p.mul_(1 - lr * weight_decay)
    m.lerp_(g, 1 - b1)
    v.mul_(b2).addcmul_(g, g, value=1 - b2)
    denom = (v.sqrt() / math.sqrt(1 - b2 ** t)).add_(eps)
    p.addcdiv_(m, denom, value=-lr / (1 - b1 ** t))


def _write_back(params, full):
    start = 0
    with torch.no_grad():
        for p in params:
            p.copy_(full[start:start + p.numel()].view_as(p))
            start += p.numel()


def zero1_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world, rank = dist.get_world_size(), dist.get_rank()
    flat_g = torch.cat([p.grad.reshape(-1) for p in params])
    dist.all_reduce(flat_g)
    flat_g /= world
    g_shard = flatten_shard([flat_g], world, rank)
    with torch.no_grad():
        p_shard = flatten_shard([p.detach() for p in params], world, rank)
        _adamw_shard(p_shard, g_shard, state, lr, betas, eps, weight_decay)
        k = p_shard.numel()
        full = p_shard.new_zeros(world * k)
        full[rank * k:(rank + 1) * k] = p_shard
        dist.all_reduce(full)
    _write_back(params, full)
'''}
