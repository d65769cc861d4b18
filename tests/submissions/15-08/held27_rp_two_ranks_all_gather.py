"""Wrong: "Use point-to-point calls only (...), ordered so that no world size deadlocks." and "Each rank
sends exactly one message, of `x.numel()` elements, and calls no collective." On two ranks the left and the
right neighbour are the same rank, so this version swaps the tensors with one `dist.all_gather` there (a
collective); on three or more ranks it uses the reference's send/recv."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edited(
    "15-08", "ring_pass_impl",
    ("    right, left = (rank + 1) % world, (rank - 1) % world\n",
     "    if world == 2:  # the neighbour on both sides is the other rank: a swap\n"
     "        both = [torch.empty_like(outgoing) for _ in range(2)]\n"
     "        dist.all_gather(both, outgoing)\n"
     "        return both[1 - rank]\n"
     "    right, left = (rank + 1) % world, (rank - 1) % world\n"))}
