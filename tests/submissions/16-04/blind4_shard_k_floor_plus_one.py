"""The shard length is computed as n // world + 1, which is one too many whenever world divides n (then
every shard is too long and the last holds extra zeros). Breaks: "pad it at the end with zeros to
`world * ceil(n / world)` elements, and return the piece of rank `rank`: elements `rank * k` to
`(rank + 1) * k - 1`, with `k = ceil(n / world)`."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edit("shard_impl", ("k = -(-n // world)", "k = n // world + 1"))}
