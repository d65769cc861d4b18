"""A second correct solution, unlike the reference and unusual_correct.py; every task must keep full marks.

- size rules with bit masks and math.ceil;
- the allocator as one function-free state machine: blocks are dicts in per-pool free/used maps keyed by
  (segment, start); best fit with sorted(); merging finds neighbours by address arithmetic, not list
  position; simulate written from scratch (no class);
- the snapshot summary in one explicit loop; will_oom through a small step function per rule;
- time_op with perf_counter_ns on the CPU, and on CUDA events waited for with current_stream().synchronize().
"""
CELLS = {
    "size_rules_impl": '''
import math
KiB = 1 << 10
MiB = 1 << 20
MIN_BLOCK, SMALL_SIZE, SMALL_BUFFER, LARGE_BUFFER, MIN_LARGE_ALLOC, ROUND_LARGE = 512, MiB, 2 * MiB, 20 * MiB, 10 * MiB, 2 * MiB


def round_size(nbytes):
    return max(MIN_BLOCK, (int(nbytes) + MIN_BLOCK - 1) & ~(MIN_BLOCK - 1))


def allocation_pool(nbytes):
    return "large" if round_size(nbytes) > SMALL_SIZE else "small"


def segment_size(nbytes):
    r = round_size(nbytes)
    if r > SMALL_SIZE and r < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    if r <= SMALL_SIZE:
        return SMALL_BUFFER
    return math.ceil(r / ROUND_LARGE) * ROUND_LARGE
''',
    "allocator_impl": '''
class CachingAllocatorModel:
    def __init__(self):
        self.seg_size = {}     # segment id -> (pool, size)
        self.blocks = {}       # (segment id, start) -> {"size": int, "owner": name or None}
        self.of = {}           # name -> (segment id, start) or None
        self.counter = 0

    def _free_candidates(self, pool, size):
        return sorted((b["size"], key) for key, b in self.blocks.items()
                      if b["owner"] is None and self.seg_size[key[0]][0] == pool and b["size"] >= size)

    def malloc(self, name, nbytes):
        if nbytes == 0:
            self.of[name] = None
            return
        size, pool = round_size(nbytes), allocation_pool(nbytes)
        cands = self._free_candidates(pool, size)
        if cands:
            key = cands[0][1]
        else:
            sid, self.counter = self.counter, self.counter + 1
            self.seg_size[sid] = (pool, segment_size(nbytes))
            key = (sid, 0)
            self.blocks[key] = {"size": segment_size(nbytes), "owner": None}
        blk = self.blocks[key]
        rest = blk["size"] - size
        if (pool == "small" and rest >= 512) or (pool == "large" and rest > MiB):
            self.blocks[(key[0], key[1] + size)] = {"size": rest, "owner": None}
            blk["size"] = size
        blk["owner"] = name
        self.of[name] = key

    def free(self, name):
        key = self.of.pop(name)
        if key is None:
            return
        self.blocks[key]["owner"] = None
        sid, start = key
        nxt = (sid, start + self.blocks[key]["size"])
        if nxt in self.blocks and self.blocks[nxt]["owner"] is None:
            self.blocks[key]["size"] += self.blocks.pop(nxt)["size"]
        prev = [k for k, b in self.blocks.items() if k[0] == sid and k[1] + b["size"] == start]
        if prev and self.blocks[prev[0]]["owner"] is None:
            self.blocks[prev[0]]["size"] += self.blocks.pop(key)["size"]

    def empty_cache(self):
        for sid, (pool, size) in list(self.seg_size.items()):
            b = self.blocks.get((sid, 0))
            if b is not None and b["owner"] is None and b["size"] == size:
                del self.blocks[(sid, 0)]
                del self.seg_size[sid]

    def stats(self):
        pools = [p for p, _ in self.seg_size.values()]
        return {"allocated": sum(b["size"] for b in self.blocks.values() if b["owner"] is not None),
                "reserved": sum(s for _, s in self.seg_size.values()),
                "small_segments": pools.count("small"), "large_segments": pools.count("large")}


def simulate(trace):
    m, rows = CachingAllocatorModel(), []
    steps = {"alloc": lambda op: m.malloc(op[1], op[2]), "free": lambda op: m.free(op[1]),
             "empty_cache": lambda op: m.empty_cache()}
    for op in trace:
        steps[op[0]](op)
        rows.append(m.stats())
    return rows
''',
    "oom_impl": '''
def summarize_snapshot(segments):
    out = {"reserved": 0, "allocated": 0, "cached_free": 0, "largest_free_block": 0, "releasable": 0}
    for seg in segments:
        out["reserved"] += seg["total_size"]
        all_free = True
        for b in seg["blocks"]:
            if b["state"] == "active_allocated":
                out["allocated"] += b["size"]
            if b["state"] == "inactive":
                out["cached_free"] += b["size"]
                out["largest_free_block"] = max(out["largest_free_block"], b["size"])
            else:
                all_free = False
        if all_free:
            out["releasable"] += seg["total_size"]
    cf = out["cached_free"]
    out["fragmentation"] = float(1 - out["largest_free_block"] / cf) if cf else 0.0
    return out


def will_oom(segments, device_free, nbytes):
    if not nbytes:
        return False
    size, pool = round_size(nbytes), allocation_pool(nbytes)
    cached = [b["size"] for s in segments if s["segment_type"] == pool for b in s["blocks"] if b["state"] == "inactive"]
    if cached and max(cached) >= size:
        return False
    need = segment_size(nbytes)
    after_release = device_free + summarize_snapshot(segments)["releasable"]
    return not (need <= device_free or need <= after_release)
''',
    "timing_impl": '''
def time_op(fn, warmup=3, iters=10, device="cpu"):
    dev = device if isinstance(device, torch.device) else torch.device(device)
    for _ in range(warmup):
        fn()
    if dev.type == "cuda":
        events = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        events[0].record()
        for _ in range(iters):
            fn()
        events[1].record()
        torch.cuda.current_stream().synchronize()
        return float(events[0].elapsed_time(events[1])) / iters
    t0 = time.perf_counter_ns()
    for _ in range(iters):
        fn()
    return (time.perf_counter_ns() - t0) / 1e6 / iters
''',
}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
