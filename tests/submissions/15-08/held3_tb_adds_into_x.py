"""Held-out round 3: tree_broadcast receives into a fresh buffer and adds it to x (code kept from an
all-reduce): right only where x held zeros, but the task says x holds arbitrary contents off the root."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "fail", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("dist.recv(x, (v - mask + src) % world)",
     "buf = torch.empty_like(x)\n            dist.recv(buf, (v - mask + src) % world)\n            x.add_(buf)"))}
