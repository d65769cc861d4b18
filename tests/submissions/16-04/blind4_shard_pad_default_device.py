"""The padding is made with torch.zeros(..., dtype=...) and no device, so it lands on the CPU whatever
device the inputs live on (fails for meta or cuda inputs that need padding). Breaks: "Make every tensor you
create on the inputs' device (`t.new_zeros(...)` or `device=t.device`): the same code runs on `cuda:rank` or
the `meta` device."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edit("shard_impl", (
    "flat.new_zeros(world * k - n)", "torch.zeros(world * k - n, dtype=flat.dtype)"))}
