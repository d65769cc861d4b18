"""Correct, written differently: flatten_shard element by element through index arithmetic over the
concatenated flat buffer (torch.index_select of the global indices of this shard, padding by a mask),
unflatten by narrow; schedules by a dependency table per stage with per-stage queues."""
EXPECT = {'shard': 'pass', 'schedule': 'pass'}
CELLS = {
    'shard_impl': '''
def flatten_shard(tensors, world, rank):
    flat = torch.cat([t.contiguous().view(-1) if t.dim() else t.reshape(1) for t in tensors])
    n = flat.numel()
    k = math.ceil(n / world) if n else 0
    idx = torch.arange(rank * k, (rank + 1) * k, device=flat.device)
    inside = idx < n
    out = torch.index_select(flat, 0, idx.clamp(max=max(n - 1, 0))) if n else flat.new_zeros(k)
    return torch.where(inside, out, out.new_zeros(()))


def unflatten_shards(shards, shapes):
    flat = torch.cat(list(shards))
    res, off = [], 0
    for shape in shapes:
        size = 1
        for d in shape:
            size *= d
        res.append(flat.narrow(0, off, size).clone().reshape(shape))
        off += size
    return res
''',
    'schedule_impl': '''
def _sim(S, M, kind):
    finished = {}
    nf, nb = [0] * S, [0] * S
    out, t = [], 0
    while sum(nf) + sum(nb) < 2 * S * M:
        chosen = []
        for s in range(S):
            def ok_b():
                b = nb[s]
                if b >= M:
                    return False
                need = ("F", S - 1, b) if s == S - 1 else ("B", s + 1, b)
                return need in finished and finished[need] < t
            def ok_f():
                f = nf[s]
                if f >= M:
                    return False
                return s == 0 or (("F", s - 1, f) in finished and finished[("F", s - 1, f)] < t)
            if kind == "gpipe":
                if nf[s] < M:
                    pick = "F" if ok_f() else None
                else:
                    pick = "B" if ok_b() else None
            else:
                pick = "B" if ok_b() else ("F" if ok_f() and nf[s] - nb[s] < S - s else None)
            if pick == "F":
                chosen.append((t, s, "F", nf[s]))
            elif pick == "B":
                chosen.append((t, s, "B", nb[s]))
        for op in chosen:
            finished[(op[2], op[1], op[3])] = t
            if op[2] == "F":
                nf[op[1]] += 1
            else:
                nb[op[1]] += 1
        out += chosen
        t += 1
    return out


def gpipe_schedule(S, M):
    return _sim(S, M, "gpipe")


def one_f_one_b_schedule(S, M):
    return _sim(S, M, "1f1b")


def bubble_fraction(schedule, S):
    if not schedule:
        return 0.0
    T = 1 + max(op[0] for op in schedule)
    idle = S * T
    seen = set()
    for t, s, _, _ in schedule:
        if (t, s) not in seen:
            seen.add((t, s))
            idle -= 1
    return idle / (S * T)
''',
}
