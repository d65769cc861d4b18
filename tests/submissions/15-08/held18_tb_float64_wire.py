"""Wrong: "Overwrite `x` in place with the root's values on every rank" (x of any dtype). This version moves
every tensor as float64 ("the widest float, nothing is lost") and copies the float64 buffer into x at the end;
int64 values past 2**53 come back rounded."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("    v = (rank - src) % world\n",
     "    v = (rank - src) % world\n"
     "    wire = x.to(torch.float64) if v == 0 else torch.empty_like(x, dtype=torch.float64)\n"),
    ("            dist.recv(x, (v - mask + src) % world)\n",
     "            dist.recv(wire, (v - mask + src) % world)\n"),
    ("            dist.send(x, (v + mask + src) % world)\n",
     "            dist.send(wire, (v + mask + src) % world)\n"),
    ("    return x\n",
     "    if v != 0:\n        x.copy_(wire)\n    return x\n"))}
