"""Wrong: "Every rank except `src` receives exactly one message (the whole tensor), and `src` receives none"
(x of any shape). This version returns at once when `x` is empty ("nothing to copy"), so for an empty x no
rank receives anything."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    rank, world = dist.get_rank(), dist.get_world_size()\n    v = (rank - src) % world\n",
     "    if x.numel() == 0:  # nothing to send\n"
     "        return x\n"
     "    rank, world = dist.get_rank(), dist.get_world_size()\n    v = (rank - src) % world\n"))}
