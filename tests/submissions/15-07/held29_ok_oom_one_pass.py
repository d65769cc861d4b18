"""Held-out round 29 (15-07): a correct oom_impl written unusually (EXPECT all pass).

summarize_snapshot walks the blocks once with per-state totals; will_oom finds the best-fitting cached block
with min() over a generator and compares the retry with `<=` written the other way round.
"""
CELLS = {"oom_impl": '''
def summarize_snapshot(segments) -> dict:
    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""
    totals = {"active_allocated": 0, "inactive": 0}
    largest = 0
    reserved = releasable = 0
    for seg in segments:
        reserved += seg["total_size"]
        all_free = True
        for blk in seg["blocks"]:
            state, size = blk["state"], blk["size"]
            if state in totals:
                totals[state] += size
            if state == "inactive":
                largest = size if size > largest else largest
            else:
                all_free = False
        if all_free:
            releasable += seg["total_size"]
    cached_free = totals["inactive"]
    return dict(reserved=reserved, allocated=totals["active_allocated"], cached_free=cached_free,
                largest_free_block=largest, releasable=releasable,
                fragmentation=(1.0 - largest / cached_free) if cached_free else 0.0)


def will_oom(segments, device_free: int, nbytes: int) -> bool:
    """Would a request of nbytes raise OutOfMemoryError, given the cached segments and device_free bytes?"""
    if not nbytes:
        return False
    size, pool = round_size(nbytes), allocation_pool(nbytes)
    fit = min((b["size"] for s in segments if s["segment_type"] == pool
               for b in s["blocks"] if b["state"] == "inactive" and b["size"] >= size), default=None)
    if fit is not None:
        return False
    need = segment_size(nbytes)
    if device_free >= need:
        return False
    return not (need <= device_free + summarize_snapshot(segments)["releasable"])
'''}
EXPECT = {"size_rules": "pass", "allocator_model": "pass", "oom_diagnosis": "pass", "cuda_timing": "pass"}
