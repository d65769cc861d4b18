"""Held-out gap-hunting round 5 (issue 39): breaks "Each rank sends exactly one message, of x.numel()
elements" for an empty x. A shortcut returns x.new_empty(x.shape) when x has no elements, without sending or
receiving: the value, shape and dtype are right, but no rank sends the one (empty) message the text asks for."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": edit("ring_pass_impl", (
    "    rank, n = dist.get_rank(), dist.get_world_size()\n",
    "    if x.numel() == 0:\n        return x.new_empty(x.shape)\n"
    "    rank, n = dist.get_rank(), dist.get_world_size()\n"))}
