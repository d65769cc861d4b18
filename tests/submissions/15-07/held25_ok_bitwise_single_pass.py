"""Held-out round 25, correct but unusual: the size rules with bit masks and negative floor division (exact
for any int), summarize_snapshot in one explicit pass over the blocks with running totals, and will_oom
that collects the reusable hole sizes of the request's pool first and reuses summarize_snapshot's
releasable total only when it gets to step 3."""
EXPECT = {"size_rules": "pass", "oom_diagnosis": "pass"}
BASE = "reference"
CELLS = {
    "size_rules_impl": '''KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512
SMALL_SIZE = 1 * MiB
SMALL_BUFFER = 2 * MiB
LARGE_BUFFER = 20 * MiB
MIN_LARGE_ALLOC = 10 * MiB
ROUND_LARGE = 2 * MiB


def round_size(nbytes: int) -> int:
    return max(MIN_BLOCK, (nbytes + MIN_BLOCK - 1) & ~(MIN_BLOCK - 1))


def allocation_pool(nbytes: int) -> str:
    return ("large", "small")[round_size(nbytes) <= SMALL_SIZE]


def segment_size(nbytes: int) -> int:
    size = round_size(nbytes)
    if size > SMALL_SIZE and size >= MIN_LARGE_ALLOC:
        return -(-size // ROUND_LARGE) * ROUND_LARGE
    return SMALL_BUFFER if size <= SMALL_SIZE else LARGE_BUFFER
''',
    "oom_impl": '''def summarize_snapshot(segments) -> dict:
    reserved = allocated = cached_free = largest = releasable = 0
    for seg in segments:
        reserved += seg["total_size"]
        all_free = True
        for blk in seg["blocks"]:
            state, size = blk["state"], blk["size"]
            if state == "inactive":
                cached_free += size
                if size > largest:
                    largest = size
            else:
                all_free = False
                if state == "active_allocated":
                    allocated += size
        if all_free:
            releasable += seg["total_size"]
    frag = (cached_free - largest) / cached_free if cached_free else 0.0
    return {"reserved": reserved, "allocated": allocated, "cached_free": cached_free,
            "largest_free_block": largest, "releasable": releasable, "fragmentation": float(frag)}


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    if not nbytes:
        return False
    pool, size = allocation_pool(nbytes), round_size(nbytes)
    holes = [b["size"] for s in segments if s["segment_type"] == pool
             for b in s["blocks"] if b["state"] == "inactive"]
    if holes and max(holes) >= size:
        return False
    need = segment_size(nbytes)
    return need > device_free and need - device_free > summarize_snapshot(segments)["releasable"]
''',
}
