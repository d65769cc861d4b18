"""Held-out gap-hunting round 5 (issue 39): breaks "Return a new tensor of x's shape and dtype". The flat
workspace is kept in a module-level dict keyed by (numel, dtype, device) and reused, so the tensor a call
returns is overwritten by the next call on a tensor of that size (DDP all-reduces bucket after bucket of the
same size: the first bucket's sums would silently become the second's)."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edit("ring_all_reduce_impl", (
    "    work = x.reshape(-1).clone()\n",
    "    key = (x.numel(), x.dtype, x.device)\n"
    "    if key not in _RING_SPACE:\n"
    "        _RING_SPACE[key] = x.new_empty(x.numel())\n"
    "    work = _RING_SPACE[key]\n"
    "    work.copy_(x.reshape(-1))\n"), (
    "def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:\n",
    "_RING_SPACE = {}\n\n\ndef ring_all_reduce(x: torch.Tensor) -> torch.Tensor:\n"))}
