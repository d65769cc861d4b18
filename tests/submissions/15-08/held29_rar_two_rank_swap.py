"""Wrong: "the element-wise sum ... computed with the ring above" (a reduce-scatter of N-1 steps, then an
all-gather of N-1 steps, chunk by chunk). On a world of two ranks this version swaps the whole tensor
with the other rank in one isend/irecv pair and adds: one message of n elements per rank instead of the
ring's two messages of about n/2 (a chunk in each phase). The sums are bit-identical (a + b == b + a)
and the element count is within the bound, so only the message pattern on 2 ranks is wrong; 3 or more
ranks run the reference ring."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("    right, left = (rank + 1) % world, (rank - 1) % world\n",
     "    right, left = (rank + 1) % world, (rank - 1) % world\n"
     "    if world == 2:  # two ranks: swap everything once and add\n"
     "        theirs = torch.empty_like(flat)\n"
     "        reqs = [dist.isend(flat, right), dist.irecv(theirs, left)]\n"
     "        for req in reqs:\n"
     "            req.wait()\n"
     "        return flat.add_(theirs).view(x.shape)\n"))}
