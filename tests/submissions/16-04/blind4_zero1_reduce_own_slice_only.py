"""To save traffic each rank cuts its own shard out of its local gradient first and all-reduces only that
slice; but every rank contributes a different slice, so rank r adds its shard r to the other ranks' shards
q != r. Breaks: "on a single process whose gradient is the **mean** of the W ranks' gradients"."""
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
    g_shard = flatten_shard([p.grad for p in params], world, rank)
    dist.all_reduce(g_shard)
    g_shard /= world
    with torch.no_grad():
        p_shard = flatten_shard([p.detach() for p in params], world, rank)
        _adamw_shard(p_shard, g_shard, state, lr, betas, eps, weight_decay)
        pieces = [torch.empty_like(p_shard) for _ in range(world)]
        dist.all_gather(pieces, p_shard)
        full = torch.cat(pieces)
    _write_back(params, full)
'''}
