'''Held-out round 13 (issue 39): a correct answer written unusually: bit arithmetic for the size rules;
the allocator as one flat list of [sid, offset, size, owner] blocks with a sentinel for "free" (so names
such as None-like '' or 0 are owners), best fit by min() over tuples; the snapshot read in one pass;
time_op with a per-call perf_counter sum and the device read through torch.device(...).type.'''

SIZE = r"""
KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512
SMALL_SIZE = 1 * MiB
SMALL_BUFFER = 2 * MiB
LARGE_BUFFER = 20 * MiB
MIN_LARGE_ALLOC = 10 * MiB
ROUND_LARGE = 2 * MiB


def round_size(nbytes: int) -> int:
    return max(MIN_BLOCK, -(-nbytes // MIN_BLOCK) << 9)


def allocation_pool(nbytes: int) -> str:
    return ("large", "small")[round_size(nbytes) <= SMALL_SIZE]


def segment_size(nbytes: int) -> int:
    r = round_size(nbytes)
    if r <= SMALL_SIZE:
        return SMALL_BUFFER
    if r < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return (r + ROUND_LARGE - 1) >> 21 << 21
"""

ALLOC = r"""
_FREE = object()


class CachingAllocatorModel:
    def __init__(self):
        self._blocks = []     # [sid, offset, size, owner] sorted by (sid, offset)
        self._segs = {}       # sid -> (pool, size)
        self._names = {}      # name -> sid/offset key, or None for 0 bytes
        self._sid = 0

    def malloc(self, name, nbytes):
        if not nbytes:
            self._names[name] = None
            return
        want, pool = round_size(nbytes), allocation_pool(nbytes)
        cands = [(b[2], b[0], b[1], i) for i, b in enumerate(self._blocks)
                 if b[3] is _FREE and b[2] >= want and self._segs[b[0]][0] == pool]
        if cands:
            i = min(cands)[3]
        else:
            sid, self._sid = self._sid, self._sid + 1
            self._segs[sid] = (pool, segment_size(nbytes))
            self._blocks.append([sid, 0, self._segs[sid][1], _FREE])
            i = len(self._blocks) - 1
        b = self._blocks[i]
        rest = b[2] - want
        if (pool == "small" and rest >= MIN_BLOCK) or (pool == "large" and rest > SMALL_SIZE):
            self._blocks.insert(i + 1, [b[0], b[1] + want, rest, _FREE])
            b[2] = want
        b[3] = name
        self._names[name] = (b[0], b[1])

    def free(self, name):
        key = self._names.pop(name)
        if key is None:
            return
        i = next(j for j, b in enumerate(self._blocks) if (b[0], b[1]) == key)
        self._blocks[i][3] = _FREE
        for j in (i, i - 1):   # merge with the next block, then the previous one into this
            if 0 <= j < len(self._blocks) - 1:
                a, c = self._blocks[j], self._blocks[j + 1]
                if a[0] == c[0] and a[3] is _FREE and c[3] is _FREE:
                    a[2] += c[2]
                    del self._blocks[j + 1]

    def empty_cache(self):
        count = {}
        for b in self._blocks:
            count[b[0]] = count.get(b[0], 0) + (1 if b[3] is _FREE else 2)
        gone = {sid for sid, c in count.items() if c == 1}
        self._blocks = [b for b in self._blocks if b[0] not in gone]
        for sid in gone:
            del self._segs[sid]

    def stats(self):
        pools = [p for p, _ in self._segs.values()]
        return dict(allocated=sum(b[2] for b in self._blocks if b[3] is not _FREE),
                    reserved=sum(s for _, s in self._segs.values()),
                    small_segments=pools.count("small"), large_segments=pools.count("large"))


def simulate(trace):
    m = CachingAllocatorModel()
    run = {"alloc": lambda op: m.malloc(op[1], op[2]), "free": lambda op: m.free(op[1]),
           "empty_cache": lambda op: m.empty_cache()}
    out = []
    for op in trace:
        if op[0] not in run:
            raise ValueError(f"unknown op {op!r}")
        run[op[0]](op)
        out.append(m.stats())
    return out
"""

OOM = r"""
def summarize_snapshot(segments) -> dict:
    r = dict(reserved=0, allocated=0, cached_free=0, largest_free_block=0, releasable=0)
    for s in segments:
        r["reserved"] += s["total_size"]
        states = set()
        for b in s["blocks"]:
            states.add(b["state"])
            if b["state"] == "active_allocated":
                r["allocated"] += b["size"]
            elif b["state"] == "inactive":
                r["cached_free"] += b["size"]
                r["largest_free_block"] = max(r["largest_free_block"], b["size"])
        if states <= {"inactive"}:
            r["releasable"] += s["total_size"]
    r["fragmentation"] = 1.0 - r["largest_free_block"] / r["cached_free"] if r["cached_free"] else 0.0
    return r


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    if nbytes <= 0:
        return False
    want, pool = round_size(nbytes), allocation_pool(nbytes)
    fits = (b["size"] >= want for s in segments if s["segment_type"] == pool
            for b in s["blocks"] if b["state"] == "inactive")
    if any(fits):
        return False
    need = segment_size(nbytes)
    return need > device_free and need > device_free + summarize_snapshot(segments)["releasable"]
"""

TIMING = r"""
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    on_cuda = torch.device(device).type == "cuda"
    for _ in range(warmup):
        fn()
    if on_cuda:
        torch.cuda.synchronize()
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        ev[0].record()
        for _ in range(iters):
            fn()
        ev[1].record()
        torch.cuda.synchronize()
        return float(ev[0].elapsed_time(ev[1])) / iters
    total = 0.0
    for _ in range(iters):
        t = time.perf_counter()
        fn()
        total += time.perf_counter() - t
    return 1e3 * total / iters
"""

CELLS = {"size_rules_impl": SIZE, "allocator_impl": ALLOC, "oom_impl": OOM, "timing_impl": TIMING}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
