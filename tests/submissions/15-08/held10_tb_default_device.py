"""Held-out round 10: tree_broadcast receives into a scratch buffer made with torch.empty(x.shape, dtype=x.dtype)
and no device, then copies it into x: right on CPU, wrong with NCCL, where x lives on cuda:rank. The text says:
make every tensor you create on x's device (torch.empty_like(x) or device=x.device)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "fail", "shards": "pass",
          "group_sums": "pass"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("            dist.recv(x, (v - mask + src) % world)\n",
     "            buf = torch.empty(x.shape, dtype=x.dtype)\n"
     "            dist.recv(buf, (v - mask + src) % world)\n"
     "            x.copy_(buf)\n"))}
