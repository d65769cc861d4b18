"""Held-out round 10: gather_shards pads every shard into a float64 buffer ("float64 holds every value") and casts
the gathered tensor back to the shard's dtype: float64, int32 and small int64 values come back exactly, an int64
above 2**53 comes back rounded. The text says: return flat itself, with shard's dtype, on every rank."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "fail",
          "group_sums": "pass"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    padded = shard.new_zeros(max(sizes))\n", "    padded = shard.new_zeros(max(sizes), dtype=torch.float64)\n"),
    ("    return torch.cat([piece[:size] for piece, size in zip(pieces, sizes)])\n",
     "    return torch.cat([piece[:size] for piece, size in zip(pieces, sizes)]).to(shard.dtype)\n"))}
