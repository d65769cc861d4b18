"""Held-out round 10: ring_all_reduce allocates its receive buffer with torch.empty(shape, dtype=x.dtype) and no
device, which is right on CPU and wrong with NCCL, where x lives on cuda:rank. The text says: make every tensor you
create on x's device."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "fail", "tree_broadcast": "pass", "shards": "pass",
          "group_sums": "pass"}
EXPECT_GPU = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edited(
    "15-08", "ring_all_reduce_impl",
    ("        incoming = torch.empty_like(chunks[in_idx])\n",
     "        incoming = torch.empty(chunks[in_idx].shape, dtype=x.dtype)\n"))}
