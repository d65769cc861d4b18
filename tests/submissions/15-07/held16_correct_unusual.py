"""Correct, written unusually (round 16): size rules with negative floor division, an allocator with no classes
(segments as dicts, blocks as [offset, size, busy] lists, a name -> (segment, offset) map), empty_cache that drops
segments with no busy block, will_oom as one boolean expression, and time_op that times each call on its own
(perf_counter around each call on the CPU, one CUDA event pair per call on CUDA) and averages."""

SIZE_RULES = '''KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512
SMALL_SIZE = 1 * MiB
SMALL_BUFFER = 2 * MiB
LARGE_BUFFER = 20 * MiB
MIN_LARGE_ALLOC = 10 * MiB
ROUND_LARGE = 2 * MiB


def round_size(nbytes: int) -> int:
    """Block size for a request of nbytes (>= 1): rounded up to a multiple of 512, at least 512."""
    return max(MIN_BLOCK, -(-nbytes // MIN_BLOCK) * MIN_BLOCK)


def allocation_pool(nbytes: int) -> str:
    """'small' if the rounded size is at most 1 MiB, else 'large'."""
    return ("small", "large")[round_size(nbytes) > SMALL_SIZE]


def segment_size(nbytes: int) -> int:
    """Size of the new segment (one cudaMalloc) a request of nbytes creates when nothing cached fits."""
    r = round_size(nbytes)
    if r > SMALL_SIZE and r >= MIN_LARGE_ALLOC:
        return -(-r // ROUND_LARGE) * ROUND_LARGE
    return SMALL_BUFFER if r <= SMALL_SIZE else LARGE_BUFFER
'''

ALLOCATOR = '''def _alloc(st, name, nbytes):
    if not nbytes:
        st["live"][name] = None
        return
    r, pool = round_size(nbytes), allocation_pool(nbytes)
    cands = [(b[1], s["sid"], b[0], s, b) for s in st["segs"] if s["pool"] == pool
             for b in s["blocks"] if not b[2] and b[1] >= r]
    if cands:
        *_, seg, blk = min(cands, key=lambda c: c[:3])
    else:
        seg = {"sid": st["next"], "pool": pool, "size": segment_size(nbytes), "blocks": []}
        st["next"] += 1
        blk = [0, seg["size"], False]
        seg["blocks"].append(blk)
        st["segs"].append(seg)
    rest = blk[1] - r
    if rest > (SMALL_SIZE if pool == "large" else MIN_BLOCK - 1):
        k = next(i for i, b in enumerate(seg["blocks"]) if b is blk)
        seg["blocks"][k + 1:k + 1] = [[blk[0] + r, rest, False]]
        blk[1] = r
    blk[2] = True
    st["live"][name] = (seg, blk[0])


def _free(st, name):
    where = st["live"].pop(name)
    if where is None:
        return
    seg, off = where
    blocks = seg["blocks"]
    k = next(i for i, b in enumerate(blocks) if b[0] == off)
    blocks[k][2] = False
    lo, hi = k, k
    while lo > 0 and not blocks[lo - 1][2]:
        lo -= 1
    while hi + 1 < len(blocks) and not blocks[hi + 1][2]:
        hi += 1
    blocks[lo:hi + 1] = [[blocks[lo][0], sum(b[1] for b in blocks[lo:hi + 1]), False]]


def _stats(st):
    segs = st["segs"]
    return {"allocated": sum(b[1] for s in segs for b in s["blocks"] if b[2]),
            "reserved": sum(s["size"] for s in segs),
            "small_segments": len([s for s in segs if s["pool"] == "small"]),
            "large_segments": len([s for s in segs if s["pool"] == "large"])}


def simulate(trace):
    """Statistics after each op of trace: a list of dicts with allocated, reserved, small_segments,
    large_segments. Ops: ("alloc", name, nbytes), ("free", name), ("empty_cache",)."""
    st = {"segs": [], "next": 0, "live": {}}
    out = []
    for op in trace:
        if op[0] == "alloc":
            _alloc(st, op[1], op[2])
        elif op[0] == "free":
            _free(st, op[1])
        elif op[0] == "empty_cache":
            st["segs"] = [s for s in st["segs"] if any(b[2] for b in s["blocks"])]
        else:
            raise ValueError(f"unknown op {op!r}")
        out.append(_stats(st))
    return out
'''

OOM = '''def summarize_snapshot(segments) -> dict:
    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""
    out = dict.fromkeys(("reserved", "allocated", "cached_free", "largest_free_block", "releasable"), 0)
    for s in segments:
        out["reserved"] += s["total_size"]
        states = [b["state"] for b in s["blocks"]]
        for b in s["blocks"]:
            if b["state"] == "active_allocated":
                out["allocated"] += b["size"]
            elif b["state"] == "inactive":
                out["cached_free"] += b["size"]
                out["largest_free_block"] = max(out["largest_free_block"], b["size"])
        if states.count("inactive") == len(states):
            out["releasable"] += s["total_size"]
    cf = out["cached_free"]
    out["fragmentation"] = (cf - out["largest_free_block"]) / cf if cf else 0.0
    return out


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    """Would a request of nbytes raise OutOfMemoryError, given the cached segments and device_free bytes?"""
    if nbytes <= 0:
        return False
    r, pool = round_size(nbytes), allocation_pool(nbytes)
    cached = any(b["state"] == "inactive" and b["size"] >= r
                 for s in segments if s["segment_type"] == pool for b in s["blocks"])
    whole_free = sum(s["total_size"] for s in segments if all(b["state"] == "inactive" for b in s["blocks"]))
    return not cached and segment_size(nbytes) > device_free + whole_free
'''

TIMING = '''def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    on_cuda = str(device).split(":")[0] == "cuda"
    for _ in range(warmup):
        fn()
    if not on_cuda:
        per_call = []
        for _ in range(iters):
            t = time.perf_counter()
            fn()
            per_call.append(time.perf_counter() - t)
        return 1000.0 * sum(per_call) / len(per_call)
    pairs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(iters)]
    for a, b in pairs:
        a.record()
        fn()
        b.record()
    torch.cuda.synchronize(device)
    return float(sum(a.elapsed_time(b) for a, b in pairs) / iters)
'''

CELLS = {"size_rules_impl": SIZE_RULES, "allocator_impl": ALLOCATOR, "oom_impl": OOM, "timing_impl": TIMING}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
