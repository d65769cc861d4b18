"""Wrong: "Overwrite `x` in place with the root's values on every rank, and return `x`." This version
receives into a new buffer and rebinds `x.data = buf`: the Python object x shows the root's values, but the
memory x had (a parameter that x is `p.data` of, any other view of it) is never written."""
from course.grading.class_run.submissions import edited

EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("            dist.recv(x, (v - mask + src) % world)\n",
     "            buf = torch.empty_like(x)\n"
     "            dist.recv(buf, (v - mask + src) % world)\n"
     "            x.data = buf\n"))}
