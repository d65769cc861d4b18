"""Held-out round 27, correct answer written unusually: summarize_snapshot keeps running totals in one
dict built with dict.fromkeys and a single pass over the blocks; will_oom asks `any(...)` over all
(segment, block) pairs for step 1 and decides steps 2-4 with one exact integer comparison,
`max(0, need - device_free) > releasable`. Correct on every input the text allows (empty snapshot, pending
blocks, 0-byte requests, ints past 2**53)."""
from course.grading.class_run.submissions import edited, solution

EXPECT = {"oom_diagnosis": "pass"}
BASE = "reference"
_ref = solution("15-07", "oom_impl")
_summ = _ref[_ref.index('    """Totals'):_ref.index("    ### END SOLUTION")]
_oom = _ref[_ref.index("    if nbytes == 0:"):_ref.rindex("    ### END SOLUTION")]
CELLS = {"oom_impl": edited("15-07", "oom_impl", (
    _summ,
    '    """Totals and fragmentation of a torch.cuda.memory_snapshot()-style list of segments."""\n'
    "    ### BEGIN SOLUTION\n"
    '    t = dict.fromkeys(("reserved", "allocated", "cached_free", "largest_free_block", "releasable"), 0)\n'
    "    for seg in segments:\n"
    '        t["reserved"] += seg["total_size"]\n'
    "        fully_free = True\n"
    '        for b in seg["blocks"]:\n'
    '            if b["state"] == "inactive":\n'
    '                t["cached_free"] += b["size"]\n'
    '                t["largest_free_block"] = max(t["largest_free_block"], b["size"])\n'
    "                continue\n"
    "            fully_free = False\n"
    '            if b["state"] == "active_allocated":\n'
    '                t["allocated"] += b["size"]\n'
    "        if fully_free:\n"
    '            t["releasable"] += seg["total_size"]\n'
    '    t["fragmentation"] = 1.0 - t["largest_free_block"] / t["cached_free"] if t["cached_free"] else 0.0\n'
    "    return t\n",
), (
    _oom,
    "    if not nbytes:\n"
    "        return False\n"
    "    size, pool = round_size(nbytes), allocation_pool(nbytes)\n"
    '    if any(seg["segment_type"] == pool and b["state"] == "inactive" and b["size"] >= size\n'
    '           for seg in segments for b in seg["blocks"]):\n'
    "        return False\n"
    "    shortfall = max(0, segment_size(nbytes) - device_free)\n"
    '    return shortfall > summarize_snapshot(segments)["releasable"]\n',
))}
