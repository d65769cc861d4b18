"""unflatten_shards copies the shards into a buffer made with torch.empty(total, device=...), whose dtype
is the default float32: float64 shards come back as float32 (rounded). Breaks: "Return a list of new
contiguous tensors, one per shape, holding the original values, with the shards' dtype and device."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edit("shard_impl", (
    "    flat = torch.cat([s.reshape(-1) for s in shards])\n",
    "    flat = torch.empty(sum(s.numel() for s in shards), device=shards[0].device)\n"
    "    pos = 0\n"
    "    for s in shards:\n"
    "        flat[pos:pos + s.numel()] = s.reshape(-1)\n"
    "        pos += s.numel()\n"))}
