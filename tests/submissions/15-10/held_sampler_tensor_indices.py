"""Held-out gap round (wrong): permutation() returns list(torch.randperm(...)), a list of 0-dim tensors, not
the list of ints the docstring asks for; the sampler then yields tensors as indices."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"sampler_impl": _C["edit"](_C["SAMPLER"], "torch.randperm(self.num_samples, generator=g).tolist()",
                                   "list(torch.randperm(self.num_samples, generator=g))")}
EXPECT = {"sampler": "fail"}
