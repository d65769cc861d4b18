"""Wrong: "Use `dist.send` / `dist.recv` (or `isend` / `irecv`) only: no collective." For a 0-d `x` this
version calls gloo's broadcast collective, reached as `torch.distributed.distributed_c10d.broadcast` (the
function that `dist.broadcast` names) instead of walking the tree; every other shape runs the reference
tree. The values are right; on a 0-d tensor a collective was called and no rank received a message."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    v = (rank - src) % world\n",
     "    if x.dim() == 0:  # one number: let gloo do it\n"
     "        from torch.distributed import distributed_c10d\n"
     "        distributed_c10d.broadcast(x, src)\n"
     "        return x\n"
     "    v = (rank - src) % world\n"))}
