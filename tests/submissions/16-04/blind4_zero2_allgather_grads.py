"""Believing gloo has no reduce-scatter, it all-gathers every rank's whole padded gradient and sums its
own slice locally: each rank receives everybody's full gradient. Breaks: "Flatten the gradients into one flat
buffer padded as in Exercise 1 and **reduce-scatter** it (...), so that each rank receives the summed gradient
of its own shard only"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": edit("zero2_impl", (
    "    g_shard = flat_g.new_empty(k)\n"
    "    dist.reduce_scatter_single(g_shard, flat_g)\n"
    "    g_shard /= world\n",
    "    everyone = [flat_g.new_empty(world * k) for _ in range(world)]\n"
    "    dist.all_gather(everyone, flat_g)\n"
    "    g_shard = sum(e[rank * k:(rank + 1) * k] for e in everyone) / world\n"))}
