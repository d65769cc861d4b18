"""Held-out gap round 4: a correct solution written from the notebook's text, unlike the reference's layout:

- size rules by divmod and a pool table;
- the allocator without any class: simulate keeps the state in closures over plain lists ([start, size, owner]
  triples per segment, a None-free sentinel for free blocks so names '' and 0 work), best fit with sorted(),
  merging by rebuilding the segment's block list in one pass;
- summarize_snapshot from per-state totals collected in a dict; will_oom as early returns over generators;
- time_op that sums per-call perf_counter intervals on the CPU and, on CUDA, records one event pair per call."""
CELLS = {
    "size_rules_impl": '''
KiB = 1024
MiB = KiB * KiB
MIN_BLOCK, SMALL_SIZE, SMALL_BUFFER = 512, MiB, 2 * MiB
LARGE_BUFFER, MIN_LARGE_ALLOC, ROUND_LARGE = 20 * MiB, 10 * MiB, 2 * MiB


def round_size(nbytes):
    whole, part = divmod(int(nbytes), MIN_BLOCK)
    whole += 1 if part else 0
    return MIN_BLOCK * (whole or 1)


def allocation_pool(nbytes):
    return {True: "small", False: "large"}[round_size(nbytes) <= SMALL_SIZE]


def segment_size(nbytes):
    size = round_size(nbytes)
    if allocation_pool(nbytes) == "small":
        return SMALL_BUFFER
    if size < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    whole, part = divmod(size, ROUND_LARGE)
    return ROUND_LARGE * (whole + (1 if part else 0))
''',
    "allocator_impl": '''
_NOBODY = object()   # owner of a free block (tensor names may be '' or 0)


def _allocator():
    segs = []            # [number, pool, size, blocks]; blocks = [[start, size, owner], ...] by start
    where = {}           # name -> the block list entry, or None for a 0-byte tensor
    counter = [0]

    def malloc(name, nbytes):
        if not nbytes:
            where[name] = None
            return
        need, pool = round_size(nbytes), allocation_pool(nbytes)
        holes = sorted((b[1], s[0], b[0], id(b), s, b) for s in segs if s[1] == pool
                       for b in s[3] if b[2] is _NOBODY and b[1] >= need)
        if holes:
            seg, blk = holes[0][4], holes[0][5]
        else:
            size = segment_size(nbytes)
            blk = [0, size, _NOBODY]
            seg = [counter[0], pool, size, [blk]]
            counter[0] += 1
            segs.append(seg)
        rest = blk[1] - need
        if rest >= (MIN_BLOCK if pool == "small" else SMALL_SIZE + 1):
            seg[3].insert(seg[3].index(blk) + 1, [blk[0] + need, rest, _NOBODY])
            blk[1] = need
        blk[2] = name
        where[name] = (seg, blk)

    def free(name):
        found = where.pop(name)
        if found is None:
            return
        seg, blk = found
        blk[2] = _NOBODY
        merged = []
        for b in seg[3]:
            if merged and b[2] is _NOBODY and merged[-1][2] is _NOBODY:
                merged[-1][1] += b[1]
            else:
                merged.append(b)
        seg[3][:] = merged

    def empty_cache():
        segs[:] = [s for s in segs if len(s[3]) != 1 or s[3][0][2] is not _NOBODY]

    def stats():
        return {"allocated": sum(b[1] for s in segs for b in s[3] if b[2] is not _NOBODY),
                "reserved": sum(s[2] for s in segs),
                "small_segments": len([s for s in segs if s[1] == "small"]),
                "large_segments": len([s for s in segs if s[1] == "large"])}

    return malloc, free, empty_cache, stats


def simulate(trace):
    malloc, free, empty_cache, stats = _allocator()
    actions = {"alloc": lambda op: malloc(op[1], op[2]), "free": lambda op: free(op[1]),
               "empty_cache": lambda op: empty_cache()}
    result = []
    for op in trace:
        if op[0] not in actions:
            raise ValueError(f"unknown op {op!r}")
        actions[op[0]](op)
        result.append(stats())
    return result
''',
    "oom_impl": '''
def summarize_snapshot(segments):
    per_state = {"active_allocated": 0, "inactive": 0}
    biggest, whole_free, reserved = 0, 0, 0
    for seg in segments:
        reserved += int(seg["total_size"])
        states = {b["state"] for b in seg["blocks"]}
        if states <= {"inactive"}:
            whole_free += int(seg["total_size"])
        for b in seg["blocks"]:
            if b["state"] in per_state:
                per_state[b["state"]] += int(b["size"])
            if b["state"] == "inactive" and b["size"] > biggest:
                biggest = int(b["size"])
    free_total = per_state["inactive"]
    return {"reserved": reserved, "allocated": per_state["active_allocated"], "cached_free": free_total,
            "largest_free_block": biggest, "releasable": whole_free,
            "fragmentation": (1.0 - biggest / free_total) if free_total > 0 else 0.0}


def will_oom(segments, device_free, nbytes):
    if nbytes <= 0:
        return False
    need, pool = round_size(nbytes), allocation_pool(nbytes)
    if any(b["state"] == "inactive" and b["size"] >= need
           for s in segments if s["segment_type"] == pool for b in s["blocks"]):
        return False
    wanted = segment_size(nbytes)
    if device_free >= wanted:
        return False
    return device_free + sum(s["total_size"] for s in segments
                             if all(b["state"] == "inactive" for b in s["blocks"])) < wanted
''',
    "timing_impl": '''
def time_op(fn, warmup=3, iters=10, device="cpu"):
    on_gpu = torch.device(device).type == "cuda"
    for _ in range(warmup):
        fn()
    if not on_gpu:
        spent = 0.0
        for _ in range(iters):
            t0 = time.perf_counter()
            fn()
            spent += time.perf_counter() - t0
        return spent * 1e3 / iters
    pairs = []
    for _ in range(iters):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        pairs.append((a, b))
    pairs[-1][1].synchronize()
    return float(sum(a.elapsed_time(b) for a, b in pairs) / iters)
''',
}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
