"""Correct Exercise 3 written unusually (round 22): one pass over the blocks that files each size under its
state in a dict of lists, the largest hole from sorted(), fragmentation from (cached_free - largest) /
cached_free, and will_oom from bisect over the sorted free sizes of the request's pool, with step 3 as
"free device memory after releasing every wholly free segment" compared with the segment size."""
import textwrap

CELLS = {"oom_impl": textwrap.dedent('''\
    import bisect


    def _by_state(segments):
        sizes = {"active_allocated": [], "inactive": [], "active_pending_free": []}
        for s in segments:
            for b in s["blocks"]:
                sizes.setdefault(b["state"], []).append(int(b["size"]))
        return sizes


    def _wholly_free(segments):
        return [s for s in segments if not [b for b in s["blocks"] if b["state"] != "inactive"]]


    def summarize_snapshot(segments) -> dict:
        """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""
        sizes = _by_state(segments)
        holes = sorted(sizes["inactive"])
        cached_free = sum(holes)
        largest = holes[-1] if holes else 0
        return {"reserved": sum(int(s["total_size"]) for s in segments),
                "allocated": sum(sizes["active_allocated"]),
                "cached_free": cached_free,
                "largest_free_block": largest,
                "releasable": sum(int(s["total_size"]) for s in _wholly_free(segments)),
                "fragmentation": float((cached_free - largest) / cached_free) if cached_free else 0.0}


    def will_oom(segments, device_free: int, nbytes: int) -> bool:
        """Would a request of nbytes raise OutOfMemoryError, given the cached segments and device_free bytes?"""
        if not nbytes:
            return False
        want, pool = round_size(nbytes), allocation_pool(nbytes)
        holes = sorted(b["size"] for s in segments if s["segment_type"] == pool
                       for b in s["blocks"] if b["state"] == "inactive")
        if bisect.bisect_left(holes, want) < len(holes):
            return False
        fresh = segment_size(nbytes)
        after_release = device_free + sum(s["total_size"] for s in _wholly_free(segments))
        return not (fresh <= device_free or fresh <= after_release)
    ''')}
EXPECT = {"oom_diagnosis": "pass"}
