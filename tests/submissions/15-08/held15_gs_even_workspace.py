"""Wrong: "each call returns a new tensor (not memory that an earlier call returned: a workspace kept between
calls would be overwritten by the next call)". When N divides numel no padding is needed, and this version
all-gathers straight into a workspace kept per (numel, dtype, device) and returns it: a second call
overwrites the first call's result. Uneven lengths take the reference's path."""
from course.grading.class_run.submissions import edited

EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edited(
    "15-08", "shards_impl",
    ("def gather_shards(shard: torch.Tensor, numel: int) -> torch.Tensor:\n"
     "    ### BEGIN SOLUTION\n"
     "    world = dist.get_world_size()\n",
     "_GATHER_WS = {}\n\n\n"
     "def gather_shards(shard: torch.Tensor, numel: int) -> torch.Tensor:\n"
     "    ### BEGIN SOLUTION\n"
     "    world = dist.get_world_size()\n"
     "    if numel > 0 and numel % world == 0:  # equal shards: gather in place, no padding\n"
     "        key = (numel, shard.dtype, shard.device)\n"
     "        if key not in _GATHER_WS:\n"
     "            _GATHER_WS[key] = shard.new_empty(numel)\n"
     "        out = _GATHER_WS[key]\n"
     "        dist.all_gather(list(out.chunk(world)), shard.contiguous())\n"
     "        return out\n"))}
