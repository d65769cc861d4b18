"""Held-out gap-hunting round 5 (issue 39): breaks "Make every tensor you create on the input's device (...):
the same code runs with NCCL, where the input lives on cuda:rank" for reduce_scatter_shards. Each piece is
copied into torch.zeros(shape, dtype=...) on the default device, reduced there, and only the result is moved
back with .to(full.device): the returned shard has full's device, but with NCCL dist.reduce gets CPU tensors."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"shards": "fail"}
CELLS = {"shards_impl": edit("shards_impl", (
    "        buf = piece.clone(memory_format=torch.contiguous_format)\n",
    "        buf = torch.zeros(tuple(piece.shape), dtype=piece.dtype).copy_(piece)\n"), (
    "    return mine\n",
    "    return mine.to(full.device)\n"))}
