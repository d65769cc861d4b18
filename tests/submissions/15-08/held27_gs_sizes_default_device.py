"""Wrong: "Make every tensor you create on the input's device (`shard.new_zeros(...)`, ... or
`device=full.device`): the same code runs with NCCL, where the input lives on `cuda:rank`." This
gather_shards first all-gathers the shard lengths in tensors made with `torch.tensor([...])` and
`torch.zeros(1, dtype=torch.long)` (no `device=`): the data tensors are on the shard's device, but with NCCL
the length exchange runs on CPU tensors."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("    sizes = _shard_sizes(numel, world)\n"
     "    padded = shard.new_zeros(max(sizes))\n",
     "    mine = torch.tensor([shard.numel()])\n"
     "    lengths = [torch.zeros(1, dtype=torch.long) for _ in range(world)]\n"
     "    dist.all_gather(lengths, mine)  # every rank learns every shard's length\n"
     "    sizes = [int(n) for n in lengths]\n"
     "    padded = shard.new_zeros(max(sizes))\n"))}
