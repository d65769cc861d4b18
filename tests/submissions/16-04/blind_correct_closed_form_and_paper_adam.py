"""Correct, written differently: flatten_shard by copying into a preallocated zero buffer, unflatten by
torch.split of the concatenation; ZeRO-1 with the Adam paper's bias-corrected m_hat / v_hat form, the step count
as a 0-d float64 tensor and all_gather_into_tensor; ZeRO-2 with reduce_scatter_tensor; GPipe in closed form
(F at s + m, B at M + S - 1 + (S - 1 - s) + m); bubble from a set of busy slots."""
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'schedule': 'pass'}
CELLS = {
    'shard_impl': '''
def flatten_shard(tensors, world, rank):
    n = sum(t.numel() for t in tensors)
    k = (n + world - 1) // world
    buf = tensors[0].new_zeros(world * k)
    pos = 0
    for t in tensors:
        buf[pos:pos + t.numel()] = t.reshape(-1)
        pos += t.numel()
    return buf[rank * k:(rank + 1) * k].clone()


def unflatten_shards(shards, shapes):
    sizes = [math.prod(s) for s in shapes]
    flat = torch.cat(shards)
    rest = flat.numel() - sum(sizes)
    parts = torch.split(flat, sizes + [rest])
    return [p.reshape(s).contiguous().clone() for p, s in zip(parts, shapes)]
''',
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


def _paper_adam(p, g, state, lr, betas, eps, wd):
    b1, b2 = betas
    if not state:
        state["t"] = torch.zeros((), dtype=torch.float64, device=p.device)
        state["m"] = torch.zeros_like(p)
        state["v"] = torch.zeros_like(p)
    state["t"] += 1
    t = float(state["t"])
    state["m"] = b1 * state["m"] + (1 - b1) * g
    state["v"] = b2 * state["v"] + (1 - b2) * g * g
    m_hat = state["m"] / (1 - b1 ** t)
    v_hat = state["v"] / (1 - b2 ** t)
    return p * (1 - lr * wd) - lr * m_hat / (v_hat.sqrt() + eps)


def zero1_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W, r = dist.get_world_size(), dist.get_rank()
    with torch.no_grad():
        shards = [flatten_shard([q.grad for q in params], W, i) for i in range(W)]
        g = torch.cat(shards)
        dist.all_reduce(g)
        k = shards[0].numel()
        g_mine = g[r * k:(r + 1) * k] / W
        new = _paper_adam(flatten_shard([q.detach() for q in params], W, r), g_mine, state, lr, betas, eps,
                          weight_decay)
        full = new.new_empty(W * k)
        dist.all_gather_into_tensor(full, new.contiguous())
        pos = 0
        for q in params:
            q.copy_(full[pos:pos + q.numel()].reshape(q.shape))
            pos += q.numel()
''',
    'zero2_impl': '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    W, r = dist.get_world_size(), dist.get_rank()
    with torch.no_grad():
        n = sum(q.numel() for q in params)
        k = (n + W - 1) // W
        flat = params[0].new_zeros(W * k)
        pos = 0
        for q in params:
            flat[pos:pos + q.numel()] = q.grad.reshape(-1)
            pos += q.numel()
        mine = flat.new_empty(k)
        dist.reduce_scatter_tensor(mine, flat)
        new = _paper_adam(flatten_shard([q.detach() for q in params], W, r), mine / W, state, lr, betas, eps,
                          weight_decay)
        full = new.new_empty(W * k)
        dist.all_gather_into_tensor(full, new.contiguous())
        pos = 0
        for q in params:
            q.copy_(full[pos:pos + q.numel()].reshape(q.shape))
            pos += q.numel()
''',
    'schedule_impl': '''
def gpipe_schedule(S, M):
    ops = [(s + m, s, "F", m) for s in range(S) for m in range(M)]
    ops += [(M + S - 1 + (S - 1 - s) + m, s, "B", m) for s in range(S) for m in range(M)]
    return sorted(ops, key=lambda op: (op[0], op[1]))


def one_f_one_b_schedule(S, M):
    when = {}
    nf, nb, ops, t = [0] * S, [0] * S, [], 0
    while len(ops) < 2 * S * M:
        step = []
        for s in range(S):
            b = nb[s]
            if b < M:
                dep = ("B", s + 1, b) if s + 1 < S else ("F", s, b)
                if when.get(dep, t) < t:
                    step.append((t, s, "B", b))
                    nb[s] += 1
                    continue
            f = nf[s]
            if f < M and (s == 0 or when.get(("F", s - 1, f), t) < t) and f - nb[s] < S - s:
                step.append((t, s, "F", f))
                nf[s] += 1
        for op in step:
            when[(op[2], op[1], op[3])] = op[0]
        ops.extend(step)
        t += 1
    return ops


def bubble_fraction(schedule, S):
    busy = {(t, s) for t, s, _, _ in schedule}
    T = max(t for t, _, _, _ in schedule) + 1
    return float(S * T - len(busy)) / float(S * T)
''',
}
