"""Wrong: "Make every tensor you create on the input's device". reduce_scatter_shards here pads only the
pieces shorter than the longest, with `torch.zeros(k, dtype=full.dtype)` made without `device=` (10 on 4
ranks: pieces 2 and 3); on CUDA the concatenation mixes devices."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("        padded = full.new_zeros(longest)\n        padded[: piece.numel()] = piece\n",
     "        padded = piece.contiguous()\n"
     "        if piece.numel() < longest:\n"
     "            padded = torch.cat([piece, torch.zeros(longest - piece.numel(), dtype=full.dtype)])\n"))}
