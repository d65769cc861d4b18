"""Judge-side reference for 15-07: a simplified model of PyTorch's CUDA caching allocator.

Never imported by student code. The rules are those of c10/cuda/CUDACachingAllocator.cpp
(native backend, default settings: no max_split_size, no expandable segments,
no roundup_power2_divisions, one stream):

* round_size: requests are rounded up to a multiple of kMinBlockSize = 512 bytes (at least 512).
* get_pool: rounded size <= kSmallSize (1 MiB) -> small pool, else large pool.
* get_allocation_size (size of a new segment, i.e. one cudaMalloc):
  <= 1 MiB -> kSmallBuffer (2 MiB); < kMinLargeAlloc (10 MiB) -> kLargeBuffer (20 MiB);
  else rounded up to a multiple of kRoundLarge (2 MiB).
* get_free_block: best fit, the smallest cached free block of the same pool whose size is >= the
  rounded request; ties broken by address (the model's addresses: segments in creation order,
  then offset inside the segment).
* should_split: small pool -> remainder >= 512; large pool -> remainder > 1 MiB. A block that is
  not split is handed out whole, and the whole block counts in allocated_bytes.
* free_block: the freed block merges with free neighbours of the same segment.
* release_cached_blocks (empty_cache): cudaFree every segment that is a single free block.
* A zero-byte request never reaches the allocator (CUDACachingAllocator::allocate skips size 0).

Stats reported after each op: allocated (allocated_bytes.all.current), reserved
(reserved_bytes.all.current), small_segments / large_segments (segment.{small,large}_pool.current).
"""
from __future__ import annotations

KiB = 1024
MiB = 1024 * 1024
MIN_BLOCK = 512
SMALL_SIZE = 1 * MiB
SMALL_BUFFER = 2 * MiB
LARGE_BUFFER = 20 * MiB
MIN_LARGE_ALLOC = 10 * MiB
ROUND_LARGE = 2 * MiB

STAT_KEYS = ("allocated", "reserved", "small_segments", "large_segments")


def round_size(n: int) -> int:
    if n < MIN_BLOCK:
        return MIN_BLOCK
    return MIN_BLOCK * ((n + MIN_BLOCK - 1) // MIN_BLOCK)


def pool_of(n: int) -> str:
    return "small" if round_size(n) <= SMALL_SIZE else "large"


def segment_size(n: int) -> int:
    s = round_size(n)
    if s <= SMALL_SIZE:
        return SMALL_BUFFER
    if s < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return ROUND_LARGE * ((s + ROUND_LARGE - 1) // ROUND_LARGE)


def should_split(pool: str, block_size: int, size: int) -> bool:
    rem = block_size - size
    return rem >= MIN_BLOCK if pool == "small" else rem > SMALL_SIZE


class RefAllocator:
    """tie='low': among equal-size free blocks take the lowest address (PyTorch's order).
    tie='high': the highest address (used only to find traces whose outcome depends on ties)."""

    def __init__(self, tie: str = "low"):
        self.tie = tie
        self.segments = []  # each: {"id", "pool", "size", "blocks": [[offset, size, owner-or-None], ...]}
        self.owner = {}  # name -> (segment, block) ; name with 0 bytes -> None
        self.requested = {}  # name -> the bytes it asked for (a snapshot's "requested_size" of its block)
        self.next_id = 0

    def malloc(self, name, nbytes: int) -> None:
        if name in self.owner:
            raise ValueError(f"{name!r} is already allocated")
        if nbytes == 0:
            self.owner[name] = None
            return
        size = round_size(nbytes)
        pool = pool_of(nbytes)
        best = None
        for seg in self.segments:
            if seg["pool"] != pool:
                continue
            for blk in seg["blocks"]:
                if blk[2] is None and blk[1] >= size:
                    addr = (seg["id"], blk[0])
                    key = (blk[1], addr) if self.tie == "low" else (blk[1], tuple(-a for a in addr))
                    if best is None or key < best[0]:
                        best = (key, seg, blk)
        if best is None:
            seg = {"id": self.next_id, "pool": pool, "size": segment_size(nbytes), "blocks": []}
            self.next_id += 1
            seg["blocks"].append([0, seg["size"], None])
            self.segments.append(seg)
            blk = seg["blocks"][0]
        else:
            _, seg, blk = best
        if should_split(pool, blk[1], size):
            i = seg["blocks"].index(blk)
            seg["blocks"].insert(i + 1, [blk[0] + size, blk[1] - size, None])
            blk[1] = size
        blk[2] = name
        self.owner[name] = (seg, blk)
        self.requested[name] = nbytes

    def free(self, name) -> None:
        entry = self.owner.pop(name)
        if entry is None:
            return
        seg, blk = entry
        blk[2] = None
        blocks = seg["blocks"]
        i = blocks.index(blk)
        if i + 1 < len(blocks) and blocks[i + 1][2] is None:
            blk[1] += blocks[i + 1][1]
            del blocks[i + 1]
        if i > 0 and blocks[i - 1][2] is None:
            blocks[i - 1][1] += blk[1]
            del blocks[i]

    def empty_cache(self) -> None:
        self.segments = [s for s in self.segments if not (len(s["blocks"]) == 1 and s["blocks"][0][2] is None)]

    def stats(self) -> dict:
        alloc = sum(b[1] for s in self.segments for b in s["blocks"] if b[2] is not None)
        return {"allocated": alloc, "reserved": sum(s["size"] for s in self.segments),
                "small_segments": sum(s["pool"] == "small" for s in self.segments),
                "large_segments": sum(s["pool"] == "large" for s in self.segments)}


def simulate(trace, tie: str = "low") -> list[dict]:
    m = RefAllocator(tie)
    out = []
    for op in trace:
        if op[0] == "alloc":
            m.malloc(op[1], int(op[2]))
        elif op[0] == "free":
            m.free(op[1])
        elif op[0] == "empty_cache":
            m.empty_cache()
        else:
            raise ValueError(f"unknown op {op!r}")
        out.append(m.stats())
    return out


def tie_insensitive(trace) -> bool:
    """True when the outcome does not depend on how equal-size free blocks are ordered."""
    return simulate(trace, "low") == simulate(trace, "high")


# ------------------------------------------------------------------ snapshots / OOM (task oom_diagnosis)

def summarize_snapshot(segments) -> dict:
    reserved = sum(s["total_size"] for s in segments)
    allocated = sum(b["size"] for s in segments for b in s["blocks"] if b["state"] == "active_allocated")
    free = [b["size"] for s in segments for b in s["blocks"] if b["state"] == "inactive"]
    cached_free = sum(free)
    largest = max(free, default=0)
    releasable = sum(s["total_size"] for s in segments if all(b["state"] == "inactive" for b in s["blocks"]))
    frag = 0.0 if cached_free == 0 else 1.0 - largest / cached_free
    return {"reserved": reserved, "allocated": allocated, "cached_free": cached_free,
            "largest_free_block": largest, "releasable": releasable, "fragmentation": frag}


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    if nbytes == 0:
        return False
    size = round_size(nbytes)
    pool = pool_of(nbytes)
    for s in segments:
        if s["segment_type"] == pool and any(b["state"] == "inactive" and b["size"] >= size for b in s["blocks"]):
            return False
    need = segment_size(nbytes)
    if need <= device_free:
        return False
    releasable = summarize_snapshot(segments)["releasable"]
    return need > device_free + releasable


def snapshot_of(model: RefAllocator) -> list[dict]:
    """The model's state in the shape of torch.cuda.memory_snapshot(), with the other keys a real one has
    ("among others", the text says): segments carry device, address, stream, active_size and requested_size,
    blocks their address and requested_size (the bytes the tensor asked for, below its rounded size; 0 for a
    free block), so a summary must read the keys the text names ("size", not "requested_size")."""
    out = []
    for s in model.segments:
        base = (s["id"] + 1) << 34  # a segment's made-up device address: 16 GiB apart, block offsets added
        blocks = [{"address": base + b[0], "size": b[1],
                   "requested_size": 0 if b[2] is None else model.requested.get(b[2], b[1]),
                   "state": "inactive" if b[2] is None else "active_allocated"} for b in s["blocks"]]
        used = [b for b in blocks if b["state"] == "active_allocated"]
        out.append({"device": 0, "address": base, "total_size": s["size"],
                    "allocated_size": sum(b["size"] for b in used), "active_size": sum(b["size"] for b in used),
                    "requested_size": sum(b["requested_size"] for b in used), "stream": 0,
                    "segment_type": s["pool"], "blocks": blocks})
    return out
