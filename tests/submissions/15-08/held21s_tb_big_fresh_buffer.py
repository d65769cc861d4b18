"""Second pass of round 21 (not counted). Wrong: "Overwrite `x` in place with the root's values on every rank,
and return `x`". This version receives a large x (64 Ki elements or more) into a fresh buffer, forwards and
returns that buffer, and never writes it into x: the other ranks' x keep their old contents."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    v = (rank - src) % world\n",
     "    v = (rank - src) % world\n"
     "    if v != 0 and x.numel() >= 1 << 16:  # a large x: receive into fresh memory, not into x\n"
     "        x = torch.empty_like(x)\n"))}
