"""To save traffic each rank cuts its own shard out of its local gradient first and all-reduces only that
slice; but every rank contributes a different slice, so rank r adds its shard r to the other ranks' shards
q != r. Breaks: "on a single process whose gradient is the **mean** of the W ranks' gradients"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero1": "fail"}
CELLS = {"zero1_impl": edit("zero1_impl", (
    "    flat_g = torch.cat([p.grad.reshape(-1) for p in params])\n"
    "    dist.all_reduce(flat_g)\n"
    "    flat_g /= world\n"
    "    g_shard = flatten_shard([flat_g], world, rank)\n",
    "    g_shard = flatten_shard([p.grad for p in params], world, rank)\n"
    "    dist.all_reduce(g_shard)\n"
    "    g_shard /= world\n"))}
