"""Wrong: "`ring_all_reduce(x)` returns, on every rank, the element-wise sum of `x` over all ranks" and
"Return a new tensor of `x`'s shape and dtype". To halve the bytes on the wire this version sends float64
chunks as float32 (and casts what arrives back to float64): the dtype is right, but every float64 sum is
rounded to float32 precision (about 1e-7 relative) on its way round the ring."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("        incoming = torch.empty_like(chunks[in_idx])\n"
     "        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(incoming, left)]\n"
     "        for req in reqs:\n"
     "            req.wait()\n"
     "        chunks[in_idx].add_(incoming)\n",
     "        wire = torch.float32 if x.dtype == torch.float64 else x.dtype  # half the bytes for doubles\n"
     "        incoming = torch.empty_like(chunks[in_idx], dtype=wire)\n"
     "        reqs = [dist.isend(chunks[out_idx].to(wire), right), dist.irecv(incoming, left)]\n"
     "        for req in reqs:\n"
     "            req.wait()\n"
     "        chunks[in_idx].add_(incoming.to(x.dtype))\n"),
    ("        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(chunks[in_idx], left)]\n"
     "        for req in reqs:\n"
     "            req.wait()\n"
     "    return",
     "        wire = torch.float32 if x.dtype == torch.float64 else x.dtype\n"
     "        incoming = torch.empty_like(chunks[in_idx], dtype=wire)\n"
     "        reqs = [dist.isend(chunks[out_idx].to(wire), right), dist.irecv(incoming, left)]\n"
     "        for req in reqs:\n"
     "            req.wait()\n"
     "        chunks[in_idx].copy_(incoming)\n"
     "    return"))}
