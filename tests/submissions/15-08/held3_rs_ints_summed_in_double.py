"""Held-out round 3: reduce_scatter_shards sums integer tensors in float64 and casts back: int64 sums past
2**53 are rounded (the task asks for the sum with full's dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "fail",
          "group_sums": "pass"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    longest = max(sizes)\n",
     "    longest = max(sizes)\n    dtype = full.dtype\n"
     "    if not full.is_floating_point():\n        full = full.to(torch.float64)\n"),
    ("    return out[: sizes[rank]]", "    return out[: sizes[rank]].to(dtype)"))}
