"""Held-out round 12 (reduce_scatter_shards, "with full's dtype"): float16 and bfloat16 gradients are
reduce-scattered in float32 (as mixed-precision FSDP can be configured to) and the float32 shard is returned
without casting back to full's dtype."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
BASE = "reference"
CELLS = {"shards_impl": edited("15-08", "shards_impl", (
    "    sizes = _shard_sizes(full.numel(), world)\n",
    "    if full.dtype in (torch.float16, torch.bfloat16):\n        full = full.float()\n"
    "    sizes = _shard_sizes(full.numel(), world)\n",
))}
