'''Held-out round 12: a correct answer written unusually. Sizes by bit tricks; the allocator keeps one flat,
address-sorted list of blocks per pool (address = segment number * 2**60 + offset, so "lowest address" is a
plain comparison) and a name -> address map, with no Block/Segment classes; the snapshot reader walks the
snapshot once; time_op accumulates per-call perf_counter deltas on the CPU.'''
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
BASE = "reference"

SIZE = r'''
KiB = 1 << 10
MiB = 1 << 20


def round_size(nbytes: int) -> int:
    """Block size for a request of nbytes (>= 1): rounded up to a multiple of 512, at least 512."""
    return ((max(nbytes, 1) + 511) >> 9) << 9


def allocation_pool(nbytes: int) -> str:
    """'small' if the rounded size is at most 1 MiB, else 'large'."""
    return ("large", "small")[round_size(nbytes) <= MiB]


def segment_size(nbytes: int) -> int:
    """Size of the new segment (one cudaMalloc) a request of nbytes creates when nothing cached fits."""
    r = round_size(nbytes)
    if r <= MiB:
        return 2 * MiB
    if r < 10 * MiB:
        return 20 * MiB
    return -(-r // (2 * MiB)) * (2 * MiB)
'''

ALLOC = r'''
import bisect

_SEG = 1 << 60   # addresses: segment number * _SEG + offset


class CachingAllocatorModel:
    """Blocks as [address, size, owner, used] in one address-sorted list per pool."""

    def __init__(self):
        self.blocks = {"small": [], "large": []}
        self.segs = {}        # segment number -> (pool, size)
        self.names = {}       # name -> address, or -1 for 0 bytes
        self.count = 0

    def malloc(self, name, nbytes: int) -> None:
        if not nbytes:
            self.names[name] = -1
            return
        need, pool = round_size(nbytes), allocation_pool(nbytes)
        lst = self.blocks[pool]
        cands = [(b[1], b[0], i) for i, b in enumerate(lst) if not b[3] and b[1] >= need]
        if cands:
            _, _, i = min(cands)
        else:
            sid, self.count = self.count, self.count + 1
            size = segment_size(nbytes)
            self.segs[sid] = (pool, size)
            addr = sid * _SEG
            i = bisect.bisect_left([b[0] for b in lst], addr)
            lst.insert(i, [addr, size, None, False])
        b = lst[i]
        rest = b[1] - need
        if (rest >= 512) if pool == "small" else (rest > MiB):
            lst.insert(i + 1, [b[0] + need, rest, None, False])
            b[1] = need
        b[2], b[3] = name, True
        self.names[name] = b[0]

    def free(self, name) -> None:
        addr = self.names.pop(name)
        if addr < 0:
            return
        lst = self.blocks[self.segs[addr // _SEG][0]]
        i = bisect.bisect_left([b[0] for b in lst], addr)
        lst[i][2], lst[i][3] = None, False
        same = lambda j, k: lst[j][0] // _SEG == lst[k][0] // _SEG
        if i + 1 < len(lst) and not lst[i + 1][3] and same(i, i + 1):
            lst[i][1] += lst.pop(i + 1)[1]
        if i > 0 and not lst[i - 1][3] and same(i - 1, i):
            lst[i - 1][1] += lst.pop(i)[1]

    def empty_cache(self) -> None:
        for pool, lst in self.blocks.items():
            keep = []
            for b in lst:
                sid = b[0] // _SEG
                if not b[3] and b[0] % _SEG == 0 and b[1] == self.segs[sid][1]:
                    del self.segs[sid]
                else:
                    keep.append(b)
            lst[:] = keep

    def stats(self) -> dict:
        pools = [p for p, _ in self.segs.values()]
        return {"allocated": sum(b[1] for lst in self.blocks.values() for b in lst if b[3]),
                "reserved": sum(s for _, s in self.segs.values()),
                "small_segments": pools.count("small"), "large_segments": pools.count("large")}


def simulate(trace):
    """Statistics after each op of trace: a list of dicts with allocated, reserved, small_segments,
    large_segments. Ops: ("alloc", name, nbytes), ("free", name), ("empty_cache",)."""
    model = CachingAllocatorModel()
    out = []
    for op in trace:
        if op[0] == "alloc":
            model.malloc(op[1], op[2])
        elif op[0] == "free":
            model.free(op[1])
        elif op[0] == "empty_cache":
            model.empty_cache()
        else:
            raise ValueError(f"unknown op {op!r}")
        out.append(model.stats())
    return out
'''

OOM = r'''
def summarize_snapshot(segments) -> dict:
    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""
    acc = dict.fromkeys(("reserved", "allocated", "cached_free", "largest_free_block", "releasable"), 0)
    for seg in segments:
        acc["reserved"] += seg["total_size"]
        states = set()
        for blk in seg["blocks"]:
            states.add(blk["state"])
            if blk["state"] == "active_allocated":
                acc["allocated"] += blk["size"]
            elif blk["state"] == "inactive":
                acc["cached_free"] += blk["size"]
                acc["largest_free_block"] = max(acc["largest_free_block"], blk["size"])
        if states <= {"inactive"}:
            acc["releasable"] += seg["total_size"]
    acc = {k: int(v) for k, v in acc.items()}
    acc["fragmentation"] = float(acc["cached_free"] and (acc["cached_free"] - acc["largest_free_block"])
                                 / acc["cached_free"])
    return acc


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    """Would a request of nbytes raise OutOfMemoryError, given the cached segments and device_free bytes?"""
    if nbytes <= 0:
        return False
    fits = any(s["segment_type"] == allocation_pool(nbytes) and b["state"] == "inactive"
               and b["size"] >= round_size(nbytes) for s in segments for b in s["blocks"])
    if fits:
        return False
    need = segment_size(nbytes)
    return need > device_free and need > device_free + summarize_snapshot(segments)["releasable"]
'''

TIMING = r'''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    dev = device if isinstance(device, torch.device) else torch.device(str(device))
    for _ in range(warmup):
        fn()
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)
        events = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        events[0].record()
        for _ in range(iters):
            fn()
        events[1].record()
        torch.cuda.synchronize(dev)
        return float(events[0].elapsed_time(events[1])) / iters
    total = 0.0
    for _ in range(iters):
        t = time.perf_counter()
        fn()
        total += time.perf_counter() - t
    return 1000.0 * total / iters
'''

CELLS = {"size_rules_impl": SIZE, "allocator_impl": ALLOC, "oom_impl": OOM, "timing_impl": TIMING}
