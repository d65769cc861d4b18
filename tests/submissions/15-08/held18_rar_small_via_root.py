"""Wrong: "computed with the ring above" and "Bandwidth: no rank may send more than 2(N-1)·⌈n/N⌉ elements"
(x may have fewer elements than ranks). When 0 < n < N this version gathers at rank 0, which sums and sends
the result back to every rank: rank 0 sends (N-1)·n elements (9 for n = 3 on 4 ranks, against a bound of 6)
and messages go to ranks that are not its ring neighbours."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    flat = x.reshape(-1).clone()\n",
     "    flat = x.reshape(-1).clone()\n"
     "    if 0 < flat.numel() < world:  # fewer elements than ranks: empty chunks, gather at rank 0 instead\n"
     "        if rank == 0:\n"
     "            buf = torch.empty_like(flat)\n"
     "            for r in range(1, world):\n"
     "                dist.recv(buf, r)\n"
     "                flat += buf\n"
     "            for r in range(1, world):\n"
     "                dist.send(flat, r)\n"
     "        else:\n"
     "            dist.send(flat, 0)\n"
     "            dist.recv(flat, 0)\n"
     "        return flat.view(x.shape)\n"))}
