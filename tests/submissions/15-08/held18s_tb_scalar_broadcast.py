"""Wrong (second pass, not counted): "Use `dist.send` / `dist.recv` (or `isend` / `irecv`) only: no collective."
and "Every rank except `src` receives exactly one message". A 0-d x goes through gloo's `dist.broadcast`
("a single number needs no tree"); every other x goes down the binomial tree."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    rank, world = dist.get_rank(), dist.get_world_size()\n",
     "    if x.dim() == 0:  # a single number: no tree needed\n"
     "        dist.broadcast(x, src)\n"
     "        return x\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n"))}
