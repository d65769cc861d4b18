"""Held-out round 2 (15-07 allocator_model): a fresh segment made for a request of 10 MiB or more is never split.

Rule 3 sizes that segment as the rounded size rounded up to 2 MiB, and rule 5 splits "the chosen block
(cached or a fresh segment)" when the large-pool remainder is more than 1 MiB: a 10.5 MiB request gets a
12 MiB segment split into [10.5 MiB | 1.5 MiB free]. Here the whole 12 MiB counts as allocated and the
remainder is never reused.
"""
EXPECT = {'allocator_model': 'fail'}

CELLS = {
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
        if not (fresh and size >= MIN_LARGE_ALLOC) and ((rest >= MIN_BLOCK) if pool == "small" else (rest > SMALL_SIZE)):
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
}
