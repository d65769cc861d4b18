"""The updated shards are brought back by writing this rank's shard into a zero buffer and all-reducing
it, not by an all-gather (twice the traffic of the gather). Breaks: "Bring the updated shards to every rank
with `dist.all_gather` (or `dist.all_gather_single`)."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero1": "fail"}
CELLS = {"zero1_impl": edit("zero1_impl", (
    "        pieces = [torch.empty_like(p_shard) for _ in range(world)]\n"
    "        dist.all_gather(pieces, p_shard)\n"
    "        full = torch.cat(pieces)\n",
    "        k = p_shard.numel()\n"
    "        full = p_shard.new_zeros(world * k)\n"
    "        full[rank * k:(rank + 1) * k] = p_shard\n"
    "        dist.all_reduce(full)\n"))}
