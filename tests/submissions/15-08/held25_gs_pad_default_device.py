"""Wrong: "Make every tensor you create on the input's device (`shard.new_zeros(...)`, ...)". gather_shards
here pads only the shards that are shorter than the longest one, with `torch.zeros(k, dtype=shard.dtype)`
made without `device=`; with even lengths nothing is padded, with uneven ones (10 on 4 ranks) the short
ranks' padding is on the CPU (on CUDA the concatenation mixes devices)."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    padded = shard.new_zeros(max(sizes))\n    padded[: shard.numel()] = shard\n",
     "    padded = shard.contiguous()\n"
     "    if shard.numel() < max(sizes):  # pad the short shards\n"
     "        padded = torch.cat([shard, torch.zeros(max(sizes) - shard.numel(), dtype=shard.dtype)])\n"))}
