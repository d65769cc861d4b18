"""Wrong: "`ring_all_reduce(x)` returns, on every rank, the element-wise sum of `x` over all ranks" (x of any
float dtype, so inf is a value it may hold). In the all-gather phase this version receives into a fresh
buffer and "overwrites" its chunk with `chunk.mul_(0).add_(incoming)`: where the chunk held a partial sum of
inf (or NaN), inf * 0 is NaN, so a sum that should be inf comes back as NaN (finite inputs are right)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(chunks[in_idx], left)]\n"
     "        for req in reqs:\n"
     "            req.wait()\n"
     "    return",
     "        incoming = torch.empty_like(chunks[in_idx])\n"
     "        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(incoming, left)]\n"
     "        for req in reqs:\n"
     "            req.wait()\n"
     "        chunks[in_idx].mul_(0).add_(incoming)  # clear the stale partial sum, then take the final one\n"
     "    return"))}
