"""Cells of the fourth held-out writer's own 15-07 solution (written from the notebook's text alone, not the
reference), which the held4_* specs edit one sentence at a time.

Not a spec itself (the leading underscore keeps it out of the verdict runs)."""

SIZE_RULES = '''
KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512
SMALL_SIZE = 1 * MiB
SMALL_BUFFER = 2 * MiB
LARGE_BUFFER = 20 * MiB
MIN_LARGE_ALLOC = 10 * MiB
ROUND_LARGE = 2 * MiB


def _up_to(value: int, step: int) -> int:
    return (value + step - 1) // step * step


def round_size(nbytes: int) -> int:
    return max(MIN_BLOCK, _up_to(int(nbytes), MIN_BLOCK))


def allocation_pool(nbytes: int) -> str:
    if round_size(nbytes) <= SMALL_SIZE:
        return "small"
    return "large"


def segment_size(nbytes: int) -> int:
    rounded = round_size(nbytes)
    if rounded <= SMALL_SIZE:
        return SMALL_BUFFER
    if rounded < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return _up_to(rounded, ROUND_LARGE)
'''

ALLOCATOR = '''
from dataclasses import dataclass, field


@dataclass
class Block:
    offset: int
    size: int
    owner: object = None


@dataclass
class Segment:
    sid: int
    pool: str
    size: int
    blocks: list = field(default_factory=list)


class CachingAllocatorModel:
    def __init__(self):
        self.segments = []
        self.placed = {}          # tensor name -> (segment, block); None for a 0-byte tensor
        self.created = 0          # how many segments were ever created: the next segment's number

    def _new_segment(self, pool, nbytes):
        seg = Segment(self.created, pool, segment_size(nbytes))
        self.created += 1
        seg.blocks.append(Block(0, seg.size))
        self.segments.append(seg)
        return seg

    def malloc(self, name, nbytes: int) -> None:
        if nbytes == 0:
            self.placed[name] = None
            return
        want, pool = round_size(nbytes), allocation_pool(nbytes)
        best = None
        for seg in self.segments:
            if seg.pool != pool:
                continue
            for blk in seg.blocks:
                if blk.owner is None and blk.size >= want:
                    key = (blk.size, seg.sid, blk.offset)
                    if best is None or key < best[0]:
                        best = (key, seg, blk)
        if best is None:
            seg = self._new_segment(pool, nbytes)
            blk = seg.blocks[0]
        else:
            _, seg, blk = best
        spare = blk.size - want
        if (spare >= MIN_BLOCK) if pool == "small" else (spare > SMALL_SIZE):
            at = next(i for i, b in enumerate(seg.blocks) if b is blk)
            seg.blocks.insert(at + 1, Block(blk.offset + want, spare))
            blk.size = want
        blk.owner = name
        self.placed[name] = (seg, blk)

    def free(self, name) -> None:
        where = self.placed.pop(name)
        if where is None:
            return
        seg, blk = where
        blk.owner = None
        at = next(i for i, b in enumerate(seg.blocks) if b is blk)
        if at + 1 < len(seg.blocks) and seg.blocks[at + 1].owner is None:
            blk.size += seg.blocks.pop(at + 1).size
        if at > 0 and seg.blocks[at - 1].owner is None:
            seg.blocks[at - 1].size += seg.blocks.pop(at).size

    def empty_cache(self) -> None:
        self.segments = [s for s in self.segments if not (len(s.blocks) == 1 and s.blocks[0].owner is None)]

    def stats(self) -> dict:
        return {"allocated": sum(b.size for s in self.segments for b in s.blocks if b.owner is not None),
                "reserved": sum(s.size for s in self.segments),
                "small_segments": sum(s.pool == "small" for s in self.segments),
                "large_segments": sum(s.pool == "large" for s in self.segments)}


def simulate(trace):
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

OOM = '''
def _all_free(seg) -> bool:
    return all(b["state"] == "inactive" for b in seg["blocks"])


def summarize_snapshot(segments) -> dict:
    reserved = allocated = cached_free = largest = releasable = 0
    for seg in segments:
        reserved += int(seg["total_size"])
        for b in seg["blocks"]:
            if b["state"] == "active_allocated":
                allocated += int(b["size"])
            elif b["state"] == "inactive":
                cached_free += int(b["size"])
                largest = max(largest, int(b["size"]))
        if _all_free(seg):
            releasable += int(seg["total_size"])
    frag = 1.0 - largest / cached_free if cached_free else 0.0
    return {"reserved": reserved, "allocated": allocated, "cached_free": cached_free,
            "largest_free_block": largest, "releasable": releasable, "fragmentation": float(frag)}


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    if nbytes == 0:
        return False
    want, pool = round_size(nbytes), allocation_pool(nbytes)
    for seg in segments:
        if seg["segment_type"] == pool and any(b["state"] == "inactive" and b["size"] >= want for b in seg["blocks"]):
            return False
    fresh = segment_size(nbytes)
    if fresh <= device_free:
        return False
    freed = sum(int(seg["total_size"]) for seg in segments if _all_free(seg))
    return fresh > device_free + freed
'''

TIMING = '''
def time_op(fn, warmup: int = 3, iters: int = 10, device="cpu") -> float:
    dev = torch.device(device)
    for _ in range(warmup):
        fn()
    if dev.type == "cuda":
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        stop.record()
        torch.cuda.synchronize(dev)
        return float(start.elapsed_time(stop) / iters)
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    return float((time.perf_counter() - t0) * 1000.0 / iters)
'''


def edit(source: str, old: str, new: str) -> str:
    """``source`` with the one occurrence of ``old`` replaced (loud when the text above changes)."""
    if source.count(old) != 1:
        raise ValueError(f"{old!r} occurs {source.count(old)} times")
    return source.replace(old, new)
