"""Held-out round 2 (15-07): correct for every task, written unlike the reference:

- size_rules: rounding by bit masking, the segment size looked up by pool in a dict.
- allocator: blocks found through a name -> (segment, block) dict, a fresh segment numbered from a
  counter, merging by popping neighbours.
- oom_diagnosis: summarize_snapshot as one accumulating loop over states; will_oom through the shortfall
  (segment size minus device_free) compared with what the release would free.
- cuda_timing: one span per call summed (CPU), one pair of CUDA events per timed call (GPU).
"""
EXPECT = {'size_rules': 'pass', 'allocator_model': 'pass', 'empty_cache': 'pass', 'oom_diagnosis': 'pass', 'cuda_timing': 'pass'}

CELLS = {
    'size_rules_impl': '''
KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512            # kMinBlockSize: every block is a multiple of this
SMALL_SIZE = 1 * MiB       # kSmallSize: largest rounded size served by the small pool
SMALL_BUFFER = 2 * MiB     # kSmallBuffer: size of a small-pool segment
LARGE_BUFFER = 20 * MiB    # kLargeBuffer: segment for large requests below MIN_LARGE_ALLOC
MIN_LARGE_ALLOC = 10 * MiB  # kMinLargeAlloc
ROUND_LARGE = 2 * MiB      # kRoundLarge: bigger requests get their own segment, rounded to this


def round_size(nbytes: int) -> int:
    """Block size for a request of nbytes (>= 1): rounded up to a multiple of 512, at least 512."""
    return ((nbytes + MIN_BLOCK - 1) & ~(MIN_BLOCK - 1)) or MIN_BLOCK


def allocation_pool(nbytes: int) -> str:
    """'small' if the rounded size is at most 1 MiB, else 'large'."""
    return "small" if round_size(nbytes) <= SMALL_SIZE else "large"


def segment_size(nbytes: int) -> int:
    """Size of the new segment (one cudaMalloc) a request of nbytes creates when nothing cached fits."""
    size = round_size(nbytes)
    bands = {"small": SMALL_BUFFER,
             "large": LARGE_BUFFER if size < MIN_LARGE_ALLOC else math.ceil(size / ROUND_LARGE) * ROUND_LARGE}
    return int(bands[allocation_pool(nbytes)])
''',
    'allocator_impl': '''
from dataclasses import dataclass, field


@dataclass
class Block:
    offset: int          # position inside its segment, in bytes
    size: int            # bytes
    owner: object = None  # the tensor's name while in use, None while free


@dataclass
class Segment:
    sid: int             # creation order: 0 for the first segment ever created, then 1, 2, ...
    pool: str            # "small" or "large"
    size: int
    blocks: list = field(default_factory=list)  # Blocks ordered by offset, covering the whole segment


class CachingAllocatorModel:
    """A single-stream model of PyTorch's CUDA caching allocator (rules 1-8 above)."""

    def __init__(self):
        self.segments = []
        self.where = {}      # name -> (segment, block), or None for a 0-byte tensor
        self.next_sid = 0

    def malloc(self, name, nbytes: int) -> None:
        if nbytes == 0:
            self.where[name] = None
            return
        size, pool = round_size(nbytes), allocation_pool(nbytes)
        best = None
        for seg in self.segments:
            if seg.pool != pool:
                continue
            for i, b in enumerate(seg.blocks):
                if b.owner is None and b.size >= size and (best is None or b.size < best[2].size):
                    best = (seg, i, b)
        fresh = best is None
        if fresh:
            seg = Segment(self.next_sid, pool, segment_size(nbytes))
            self.next_sid += 1
            seg.blocks.append(Block(0, seg.size))
            self.segments.append(seg)
            best = (seg, 0, seg.blocks[0])
        seg, i, b = best
        rest = b.size - size
        if (rest >= MIN_BLOCK) if pool == "small" else (rest > SMALL_SIZE):
            seg.blocks.insert(i + 1, Block(b.offset + size, rest))
            b.size = size
        b.owner = name
        self.where[name] = (seg, b)

    def free(self, name) -> None:
        entry = self.where.pop(name)
        if entry is None:
            return
        seg, b = entry
        b.owner = None
        i = seg.blocks.index(b)
        if i + 1 < len(seg.blocks) and seg.blocks[i + 1].owner is None:
            b.size += seg.blocks.pop(i + 1).size
        if i > 0 and seg.blocks[i - 1].owner is None:
            prev = seg.blocks[i - 1]
            prev.size += seg.blocks.pop(i).size

    def empty_cache(self) -> None:
        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]

    def stats(self) -> dict:
        return {"allocated": sum(b.size for s in self.segments for b in s.blocks if b.owner is not None),
                "reserved": sum(s.size for s in self.segments),
                "small_segments": sum(s.pool == "small" for s in self.segments),
                "large_segments": sum(s.pool == "large" for s in self.segments)}


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
''',
    'oom_impl': '''
def summarize_snapshot(segments) -> dict:
    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""
    out = dict.fromkeys(["reserved", "allocated", "cached_free", "largest_free_block", "releasable"], 0)
    for seg in segments:
        out["reserved"] += seg["total_size"]
        states = {b["state"] for b in seg["blocks"]}
        if states <= {"inactive"}:
            out["releasable"] += seg["total_size"]
        for b in seg["blocks"]:
            if b["state"] == "active_allocated":
                out["allocated"] += b["size"]
            elif b["state"] == "inactive":
                out["cached_free"] += b["size"]
                out["largest_free_block"] = max(out["largest_free_block"], b["size"])
    out = {k: int(v) for k, v in out.items()}
    out["fragmentation"] = float(1 - out["largest_free_block"] / out["cached_free"]) if out["cached_free"] > 0 else 0.0
    return out


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    """Would a request of nbytes raise OutOfMemoryError, given the cached segments and device_free bytes?"""
    if not nbytes:
        return False
    pool = allocation_pool(nbytes)
    holes = sorted(b["size"] for s in segments if s["segment_type"] == pool
                   for b in s["blocks"] if b["state"] == "inactive")
    if holes and holes[-1] >= round_size(nbytes):
        return False
    shortfall = segment_size(nbytes) - device_free
    return shortfall > summarize_snapshot(segments)["releasable"] if shortfall > 0 else False
''',
    'timing_impl': '''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    """Mean milliseconds per call of fn() after warm-up; waits for queued GPU work on CUDA."""
    on_gpu = str(device).startswith("cuda")
    for _ in range(warmup):
        fn()
    if not on_gpu:
        spans = []
        for _ in range(iters):
            t = time.perf_counter()
            fn()
            spans.append(time.perf_counter() - t)
        return 1000.0 * sum(spans) / len(spans)
    torch.cuda.synchronize(device)
    pairs = []
    for _ in range(iters):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        pairs.append((a, b))
    torch.cuda.synchronize(device)
    return float(sum(a.elapsed_time(b) for a, b in pairs) / iters)
''',
}
