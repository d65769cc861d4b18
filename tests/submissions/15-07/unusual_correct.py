"""A correct solution written very differently from the reference, for every task.

- size rules: ceiling division by negation, pools by bit tests, a table for segment sizes;
- allocator: no classes; the state is a flat dict of intervals keyed by (segment id, start), the best
  fit is found with min() over a generator, merging by interval arithmetic; stats carry extra keys and
  numpy integers;
- snapshot summary with functools.reduce and extra keys, will_oom as one boolean expression;
- time_op with per-call timings and statistics.fmean, returning a numpy float; CUDA path with
  synchronize and a wall clock instead of events.
"""
CELLS = {
    "size_rules_impl": '''
import math as _m
KiB, MiB = 1 << 10, 1 << 20
MIN_BLOCK, SMALL_SIZE, SMALL_BUFFER, LARGE_BUFFER, MIN_LARGE_ALLOC, ROUND_LARGE = 512, MiB, 2 * MiB, 20 * MiB, 10 * MiB, 2 * MiB


def round_size(nbytes):
    return max(512, -(-int(nbytes) // 512) * 512)


def allocation_pool(nbytes):
    r = round_size(nbytes)
    return ("large", "small")[r <= (1 << 20)]


def segment_size(nbytes):
    r = round_size(nbytes)
    if r > (1 << 20) and r < 10 * (1 << 20):
        return 20 << 20
    if r <= (1 << 20):
        return 2 << 20
    return int(_m.ceil(r / (2 << 20))) * (2 << 20)
''',
    "allocator_impl": '''
import numpy as _np


def simulate(trace):
    seg_size, seg_pool = {}, {}          # sid -> size, pool
    blocks = {}                          # (sid, start) -> [length, owner]
    owner_of = {}                        # name -> (sid, start) | None
    sid_counter = [0]
    rows = []

    def seg_blocks(sid):
        return sorted((k, v) for k, v in blocks.items() if k[0] == sid)

    for op in trace:
        kind = op[0]
        if kind == "alloc":
            _, name, n = op
            if n == 0:
                owner_of[name] = None
            else:
                need, pool = round_size(n), allocation_pool(n)
                cands = [(v[0], k) for k, v in blocks.items() if v[1] is None and v[0] >= need and seg_pool[k[0]] == pool]
                if cands:
                    length, key = min(cands)
                else:
                    sid = sid_counter[0]
                    sid_counter[0] += 1
                    seg_size[sid], seg_pool[sid] = segment_size(n), pool
                    key, length = (sid, 0), seg_size[sid]
                    blocks[key] = [length, None]
                rest = length - need
                if (pool == "small" and rest >= 512) or (pool == "large" and rest > (1 << 20)):
                    blocks[(key[0], key[1] + need)] = [rest, None]
                    blocks[key] = [need, name]
                else:
                    blocks[key][1] = name
                owner_of[name] = key
        elif kind == "free":
            key = owner_of.pop(op[1])
            if key is not None:
                blocks[key][1] = None
                changed = True
                while changed:
                    changed = False
                    items = seg_blocks(key[0])
                    for (k1, v1), (k2, v2) in zip(items, items[1:]):
                        if v1[1] is None and v2[1] is None:
                            v1[0] += v2[0]
                            del blocks[k2]
                            changed = True
                            break
        elif kind == "empty_cache":
            for sid in list(seg_size):
                items = seg_blocks(sid)
                if len(items) == 1 and items[0][1][1] is None:
                    del blocks[items[0][0]], seg_size[sid], seg_pool[sid]
        else:
            raise ValueError(op)
        rows.append({
            "reserved": _np.int64(sum(seg_size.values())),
            "allocated": _np.int64(sum(v[0] for v in blocks.values() if v[1] is not None)),
            "large_segments": sum(p == "large" for p in seg_pool.values()),
            "small_segments": sum(p == "small" for p in seg_pool.values()),
            "n_blocks": len(blocks),
        })
    return rows
''',
    "oom_impl": '''
from functools import reduce as _reduce


def summarize_snapshot(segments):
    def acc(tot, seg):
        states = [b["state"] for b in seg["blocks"]]
        frees = [b["size"] for b in seg["blocks"] if b["state"] == "inactive"]
        return {"reserved": tot["reserved"] + seg["total_size"],
                "allocated": tot["allocated"] + sum(b["size"] for b in seg["blocks"] if b["state"] == "active_allocated"),
                "cached_free": tot["cached_free"] + sum(frees),
                "largest_free_block": max([tot["largest_free_block"], *frees]),
                "releasable": tot["releasable"] + (seg["total_size"] if set(states) <= {"inactive"} else 0),
                "segments": tot["segments"] + 1}
    t = _reduce(acc, segments, dict.fromkeys(["reserved", "allocated", "cached_free", "largest_free_block",
                                              "releasable", "segments"], 0))
    t["fragmentation"] = (t["cached_free"] - t["largest_free_block"]) / t["cached_free"] if t["cached_free"] else 0.0
    return t


def will_oom(segments, device_free, nbytes):
    pool, need = allocation_pool(max(nbytes, 1)), round_size(max(nbytes, 1))
    fits_cache = any(b["size"] >= need for s in segments if s["segment_type"] == pool
                     for b in s["blocks"] if b["state"] == "inactive")
    new_seg = segment_size(max(nbytes, 1))
    return bool(nbytes) and not fits_cache and new_seg > device_free + summarize_snapshot(segments)["releasable"]
''',
    "timing_impl": '''
import statistics as _st
import numpy as _np


def time_op(fn, warmup=3, iters=10, device="cpu"):
    cuda = str(device).startswith("cuda")
    for _ in range(warmup):
        fn()
    per_call = []
    for _ in range(iters):
        if cuda:
            torch.cuda.synchronize()
        t = time.perf_counter_ns()
        fn()
        if cuda:
            torch.cuda.synchronize()
        per_call.append((time.perf_counter_ns() - t) / 1e6)
    return _np.float64(_st.fmean(per_call))
''',
}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
