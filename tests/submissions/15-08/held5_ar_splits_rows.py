"""Held-out gap-hunting round 5 (issue 39): breaks "Bandwidth: no rank may send more than 2(N-1)·⌈n/N⌉ elements
for n = x.numel()" for x of more than one dimension. The ring cuts torch.atleast_1d(x) with tensor_split along
dim 0 (whole rows) instead of the flat tensor: the sums are right, but for x of shape (2, 300) on 3 ranks the
chunks hold 300, 300 and 0 elements and rank 0 sends 900 > 2·2·200 = 800; 1-D x is cut exactly as the text says."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"ring_all_reduce": "fail"}
CELLS = {"ring_all_reduce_impl": edit("ring_all_reduce_impl", (
    "    work = x.reshape(-1).clone()\n",
    "    work = torch.atleast_1d(x).clone(memory_format=torch.contiguous_format)\n"))}
