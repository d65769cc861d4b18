"""Held-out round 2 (15-07 oom_diagnosis): the retry of step 3 counts only the released segments.

After the release, CUDA has device_free plus the released bytes; this answer asks whether the released
segments alone hold segment_size(nbytes), so a request that fits only in the two together is predicted to
fail.
"""
EXPECT = {'oom_diagnosis': 'fail'}

CELLS = {
    'oom_impl': '''
def summarize_snapshot(segments) -> dict:
    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""
    blocks = [b for s in segments for b in s["blocks"]]
    free = [int(b["size"]) for b in blocks if b["state"] == "inactive"]
    cached_free = sum(free)
    largest = max(free, default=0)
    return {"reserved": sum(int(s["total_size"]) for s in segments),
            "allocated": sum(int(b["size"]) for b in blocks if b["state"] == "active_allocated"),
            "cached_free": cached_free,
            "largest_free_block": largest,
            "releasable": sum(int(s["total_size"]) for s in segments
                              if all(b["state"] == "inactive" for b in s["blocks"])),
            "fragmentation": 1.0 - largest / cached_free if cached_free else 0.0}


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    """Would a request of nbytes raise OutOfMemoryError, given the cached segments and device_free bytes?"""
    if nbytes == 0:
        return False
    size, pool = round_size(nbytes), allocation_pool(nbytes)
    for s in segments:
        if s["segment_type"] == pool and any(b["state"] == "inactive" and b["size"] >= size for b in s["blocks"]):
            return False                                    # step 1: a cached block fits
    need = segment_size(nbytes)
    if device_free >= need:
        return False                                        # step 2: cudaMalloc succeeds
    released = sum(s["total_size"] for s in segments if all(b["state"] == "inactive" for b in s["blocks"]))
    return not (released >= need)                                      # step 3: release free segments, retry once
''',
}
