"""Held-out gap-hunting round 5 (issue 39): breaks "Make every tensor you create on the input's device
(shard.new_zeros(...), ...)" for gather_shards. The zero tensor that receives the shard and is all-reduced is
made with torch.zeros(numel, dtype=...) on the default device and moved back at the end with .to(shard.device):
the result has the shard's device, but with NCCL the all_reduce gets a CPU tensor."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edit("shards_impl", (
    "    placed = shard.new_zeros(numel)\n",
    "    placed = torch.zeros(numel, dtype=shard.dtype)\n"), (
    "    return placed\n",
    "    return placed.to(shard.device)\n"))}
