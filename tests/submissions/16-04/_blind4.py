"""Shared base of the blind4_* examples: the blind writer's own correct solution cells, each held once, and
edit() to derive a wrong one from them. Every known-wrong blind4_* example is one of these cells with the
writer's mistake put in by exact (old, new) replacements, so it differs from the writer's correct code in
the mistake only. This is the writer's code, not the course reference. blind4_unusual_correct_schedule.py
and blind4_unusual_correct_zero2.py are other correct answers by the same writer, written in another style,
and keep their whole cells."""

_SCHEDULE = '''
def _plan(S, M, one_f_one_b):
    when = {}
    next_f, next_b = [0] * S, [0] * S
    ops, t = [], 0
    while len(ops) < 2 * S * M:
        for s in range(S):
            f, b = next_f[s], next_b[s]
            b_needs = ("B", s + 1, b) if s < S - 1 else ("F", s, b)
            can_b = b < M and when.get(b_needs, t) < t
            can_f = f < M and (s == 0 or when.get(("F", s - 1, f), t) < t)
            if one_f_one_b:
                can_f = can_f and f - b < S - s
            else:
                can_b = can_b and f == M
            if can_b:
                op = ("B", b)
                next_b[s] += 1
            elif can_f:
                op = ("F", f)
                next_f[s] += 1
            else:
                continue
            when[(op[0], s, op[1])] = t
            ops.append((t, s, op[0], op[1]))
        t += 1
    return ops


def gpipe_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    return _plan(S, M, False)


def one_f_one_b_schedule(S: int, M: int) -> list[tuple[int, int, str, int]]:
    return _plan(S, M, True)


def bubble_fraction(schedule: list, S: int) -> float:
    T = 1 + max(t for t, *_ in schedule)
    busy = len({(t, s) for t, s, _, _ in schedule})
    return float(1 - busy / (S * T))
'''

_PIPELINE = '''
def pipeline_grads(stage, data, loss_fn, M, width):
    rank = dist.get_rank()
    rows = data.shape[0]
    p0 = next(stage.parameters())
    if rank == 0:
        outs = []
        for xm in torch.tensor_split(data, M):
            out = stage(xm)
            dist.send(out.detach().contiguous(), 1)
            outs.append(out)
        for out in outs:
            g = out.new_empty(out.shape)
            dist.recv(g, 1)
            out.backward(g)
    else:
        pending = []
        for ym in torch.tensor_split(data, M):
            act = torch.empty((ym.shape[0], width), dtype=p0.dtype, device=p0.device)
            dist.recv(act, 0)
            act.requires_grad_(True)
            loss = loss_fn(stage(act), ym) * (ym.shape[0] / rows)
            pending.append((act, loss))
        for act, loss in pending:
            loss.backward()
            dist.send(act.grad.contiguous(), 0)
'''

_SHARD = '''
def flatten_shard(tensors: list[torch.Tensor], world: int, rank: int) -> torch.Tensor:
    flat = torch.cat([t.reshape(-1) for t in tensors])
    n = flat.numel()
    k = -(-n // world)
    if world * k > n:
        flat = torch.cat([flat, flat.new_zeros(world * k - n)])
    return flat[rank * k:(rank + 1) * k].clone()


def unflatten_shards(shards: list[torch.Tensor], shapes: list) -> list[torch.Tensor]:
    flat = torch.cat([s.reshape(-1) for s in shards])
    out, at = [], 0
    for shape in shapes:
        size = math.prod(shape)
        out.append(flat[at:at + size].reshape(shape).clone())
        at += size
    return out
'''

_ZERO1 = '''
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
        pieces = [torch.empty_like(p_shard) for _ in range(world)]
        dist.all_gather(pieces, p_shard)
        full = torch.cat(pieces)
    _write_back(params, full)
'''

_ZERO2 = '''
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
        _adamw_shard(p_shard, g_shard, state, lr, betas, eps, weight_decay)
        full = p_shard.new_empty(world * k)
        dist.all_gather_single(full, p_shard)
    _write_back(params, full)
'''

_ZERO3 = '''
def zero3_step(layers, shards, x, y, loss_fn, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world = dist.get_world_size()

    def gathered(i, grad):
        buf = shards[i].new_empty(world * shards[i].numel())
        dist.all_gather_single(buf, shards[i])
        ps = unflatten_shards([buf], layers[i].shapes)
        del buf
        return [p.requires_grad_(grad) for p in ps]

    inputs, h = [], x
    with torch.no_grad():
        for i in range(len(layers)):
            inputs.append(h)
            h = layers[i](gathered(i, False), h)
    del h
    grad_h = None
    for i in range(len(layers) - 1, -1, -1):
        ps = gathered(i, True)
        inp = inputs.pop().detach().requires_grad_(i > 0)
        out = layers[i](ps, inp)
        wrt = ps + [inp] if i > 0 else ps
        if i == len(layers) - 1:
            grads = torch.autograd.grad(loss_fn(out, y), wrt, allow_unused=True)
        else:
            grads = torch.autograd.grad(out, wrt, grad_outputs=grad_h, allow_unused=True)
        grads = [torch.zeros_like(t) if g is None else g for t, g in zip(wrt, grads)]
        grad_h = grads[-1] if i > 0 else None
        n, k = sum(p.numel() for p in ps), shards[i].numel()
        flat = torch.cat([g.reshape(-1) for g in grads[:len(ps)]] + [shards[i].new_zeros(world * k - n)])
        del ps, out, grads, wrt
        g_shard = shards[i].new_empty(k)
        dist.reduce_scatter_single(g_shard, flat)
        del flat
        g_shard /= world
        with torch.no_grad():
            _adamw_shard(shards[i], g_shard, state.setdefault(f"layer{i}", {}), lr, betas, eps, weight_decay)
'''

CORRECT = {"schedule_impl": _SCHEDULE, "pipeline_impl": _PIPELINE, "shard_impl": _SHARD,
           "zero1_impl": _ZERO1, "zero2_impl": _ZERO2, "zero3_impl": _ZERO3}


def edit(cell, *pairs):
    """The writer's correct source of solution cell `cell` with each (old, new) applied in turn; an `old`
    that is missing or occurs more than once raises, so a stale edit cannot pass silently."""
    src = CORRECT[cell]
    for old, new in pairs:
        found = src.count(old)
        if found != 1:
            raise ValueError(f"_blind4.py/{cell}: {old!r} found {found} times, expected exactly once")
        src = src.replace(old, new)
    return src
