"""unflatten_shards skips the concatenation when there is only one shard (world 1) and returns reshaped
slices without copying, so the results share memory with the caller's shard. Breaks: "Return a list of new
contiguous tensors, one per shape, holding the original values"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edit("shard_impl", (
    "    flat = torch.cat([s.reshape(-1) for s in shards])",
    "    flat = shards[0].reshape(-1) if len(shards) == 1 else torch.cat([s.reshape(-1) for s in shards])"),
    (".reshape(shape).clone())", ".reshape(shape))"))}
