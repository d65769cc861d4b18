"""Correct, written differently: shards through F.pad and chunk, unflattening by torch.split of a trimmed
buffer, ZeRO with the list forms of the collectives (dist.all_gather, dist.reduce_scatter), moments updated
by explicit formulas with the step count as a tensor, and schedules built per stage from earliest start
times rather than step by step."""
EXPECT = {"shard": "pass", "zero1": "pass", "zero2": "pass", "schedule": "pass"}
CELLS = {
    "shard_impl": '''
import torch.nn.functional as F


def flatten_shard(tensors, world, rank):
    flat = torch.cat([t.flatten() for t in tensors]) if len(tensors) > 1 else tensors[0].flatten().clone()
    pad = (-flat.numel()) % world
    return F.pad(flat, (0, pad)).chunk(world)[rank].clone() if flat.numel() + pad else flat.new_empty(0)


def unflatten_shards(shards, shapes):
    sizes = [int(torch.Size(s).numel()) for s in shapes]
    buf = torch.cat(list(shards))[: sum(sizes)]
    return [piece.reshape(s).contiguous().clone() for piece, s in zip(torch.split(buf, sizes), shapes)]
''',
    "zero1_impl": '''
def _adamw_shard(p, g, state, lr, betas, eps, weight_decay):
    if not state:
        state.update(t=torch.zeros((), dtype=torch.int64, device=p.device), m=torch.zeros_like(p),
                     v=torch.zeros_like(p))
    state["t"] += 1
    t = int(state["t"])
    b1, b2 = betas
    state["m"] = b1 * state["m"] + (1 - b1) * g
    state["v"] = b2 * state["v"] + (1 - b2) * g * g
    mhat = state["m"] / (1 - b1 ** t)
    vhat = state["v"] / (1 - b2 ** t)
    new = p * (1 - lr * weight_decay) - lr * mhat / (vhat.sqrt() + eps)
    p.copy_(new)


def _write_back(params, full):
    with torch.no_grad():
        sizes = [p.numel() for p in params]
        for p, piece in zip(params, full[: sum(sizes)].split(sizes)):
            p.view(-1).copy_(piece) if p.is_contiguous() else p.copy_(piece.view(p.shape))


def zero1_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world, rank = dist.get_world_size(), dist.get_rank()
    grads = [p.grad.detach().clone() for p in params]
    for g in grads:
        dist.all_reduce(g)
    g = flatten_shard([x / world for x in grads], world, rank)
    shard = flatten_shard([p.detach() for p in params], world, rank)
    _adamw_shard(shard, g, state, lr, betas, eps, weight_decay)
    pieces = [torch.empty_like(shard) for _ in range(world)]
    dist.all_gather(pieces, shard)
    _write_back(params, torch.cat(pieces))
''',
    "zero2_impl": '''
def zero2_step(params, state, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
    world, rank = dist.get_world_size(), dist.get_rank()
    inputs = [flatten_shard([p.grad for p in params], world, r) for r in range(world)]
    g = torch.empty_like(inputs[0])
    dist.reduce_scatter(g, inputs)
    shard = flatten_shard([p.detach() for p in params], world, rank)
    _adamw_shard(shard, g.div(world), state, lr, betas, eps, weight_decay)
    pieces = [torch.empty_like(shard) for _ in range(world)]
    dist.all_gather(pieces, shard)
    _write_back(params, torch.cat(pieces))
''',
    "schedule_impl": '''
def _plan(S, M, limit):
    # per stage, in stage order for forwards and reverse order for backwards, the earliest start of each op
    # under the rules, simulated with per-stage clocks and a shared table of finish times
    finish, ops = {}, []
    nf, nb, busy = [0] * S, [0] * S, [-1] * S
    t = 0
    while len(ops) < 2 * S * M:
        fresh = {}
        for s in reversed(range(S)):
            f, b = nf[s], nb[s]
            dep_b = ("F", s, b) if s == S - 1 else ("B", s + 1, b)
            ok_b = b < M and dep_b in finish and finish[dep_b] < t
            ok_f = f < M and (s == 0 or (("F", s - 1, f) in finish and finish[("F", s - 1, f)] < t))
            if limit is None:
                choice = "F" if ok_f else "B" if (ok_b and f == M) else ""
            else:
                choice = "B" if ok_b else "F" if (ok_f and f - b < limit(s)) else ""
            if choice:
                m = f if choice == "F" else b
                fresh[(choice, s, m)] = t
                ops.append((t, s, choice, m))
                if choice == "F":
                    nf[s] += 1
                else:
                    nb[s] += 1
        finish.update(fresh)
        t += 1
    return sorted(ops, key=lambda o: (o[0], o[1]))


def gpipe_schedule(S, M):
    return _plan(S, M, None)


def one_f_one_b_schedule(S, M):
    return _plan(S, M, lambda s: S - s)


def bubble_fraction(schedule, S):
    if not schedule:
        return 0.0
    steps = max(op[0] for op in schedule) + 1
    idle = S * steps - len(set((op[0], op[1]) for op in schedule))
    return float(idle) / float(S * steps)
''',
}
