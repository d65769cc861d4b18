"""Keeps the step count in a module-level counter instead of in `state`: a second run (a fresh, empty
state) on the same rank continues the old count, so its bias correction is wrong; the text says keep the step
count in state."""
EXPECT = {'zero1': 'fail'}
CELLS = {
    'zero1_impl': '''
def _adamw_shard(p, g, state, lr, betas, eps, weight_decay):
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


_STEP = [0]


def zero1_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W, r = dist.get_world_size(), dist.get_rank()
    with torch.no_grad():
        g = torch.cat([p.grad.reshape(-1) for p in params])
        dist.all_reduce(g); g /= W
        n = g.numel()
        k = -(-n // W)
        g = torch.cat([g, g.new_zeros(W * k - n)])
        g_mine = g[r * k:(r + 1) * k].clone()
        p = flatten_shard([q.detach() for q in params], W, r)
        _STEP[0] += 1
        state.setdefault("exp_avg", torch.zeros_like(p))
        state.setdefault("exp_avg_sq", torch.zeros_like(p))
        _ps = {"step": _STEP[0] - 1, "exp_avg": state["exp_avg"], "exp_avg_sq": state["exp_avg_sq"]}
        _adamw_shard(p, g_mine, _ps, lr, betas, eps, weight_decay)
    pieces = [torch.empty_like(p) for _ in range(W)]
    dist.all_gather(pieces, p)
    full = torch.cat(pieces)
    _write_back(params, full)
''',
}
