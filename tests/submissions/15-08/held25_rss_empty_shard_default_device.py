"""Wrong: "Make every tensor you create on the input's device (..., `torch.empty_like(full)` or
`device=full.device`)". reduce_scatter_shards here returns `torch.empty(0, dtype=full.dtype)` on a rank whose
shard is empty (length smaller than N), made without `device=`: on CUDA those ranks return a CPU tensor."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    return out[: sizes[rank]]\n",
     "    if sizes[rank] == 0:  # an empty shard: a fresh empty tensor\n"
     "        return torch.empty(0, dtype=full.dtype)\n"
     "    return out[: sizes[rank]]\n"))}
