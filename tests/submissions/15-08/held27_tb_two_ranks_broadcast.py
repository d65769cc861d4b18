"""Wrong: "Use `dist.send` / `dist.recv` (or `isend` / `irecv`) only: no collective." On two ranks the tree
is a single message, so this version calls `dist.broadcast(x, src)` there (a collective); on three or more
ranks it runs the reference's binomial tree."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    v = (rank - src) % world\n",
     "    if world == 2:  # one message: the library's broadcast is that message\n"
     "        dist.broadcast(x, src)\n"
     "        return x\n"
     "    v = (rank - src) % world\n"))}
