"""Held-out gap-hunting round 5 (issue 39): breaks "Each sequence is a tensor of shape (L_i, *features)" for a
features shape that holds a 0 (for example (L_i, 0) or (L_i, 3, 0)). Every sample is flattened with
s.reshape(-1, width) before the copy, and reshape cannot infer the -1 of a tensor with no elements when width
is 0, so pad_collate raises; pad_sequence pads such samples to (B, L_max, *features)."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edit("collate_impl", (
    "inputs.view(batch * longest, *feats)[rows.to(inputs.device)] = torch.cat(seqs).to(inputs.dtype)",
    "width = math.prod(feats)\n"
    "    flat = torch.cat([s.reshape(-1, width) for s in seqs]).to(inputs.dtype)\n"
    "    inputs.view(batch * longest, width)[rows.to(inputs.device)] = flat"))}
