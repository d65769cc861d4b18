"""Held-out gap-hunting round 5 (issue 39): breaks '"inputs": ... padding_value everywhere else' (and the real
positions hold the samples) for a non-finite padding_value. For floating dtypes the batch is zero-padded and
then blended arithmetically, inputs * m + padding_value * (1 - m); with padding_value = -inf (a common choice
before a max or a softmax) every real position becomes x + (-inf) * 0 = nan."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edit("collate_impl", (
    "    mask = torch.arange(longest).expand(batch, longest) < lengths.unsqueeze(1)\n",
    "    mask = torch.arange(longest).expand(batch, longest) < lengths.unsqueeze(1)\n"
    "    if inputs.is_floating_point():\n"
    "        zero_padded = torch.zeros_like(inputs)\n"
    "        zero_padded.view(batch * longest, *feats)[rows] = torch.cat(seqs).to(inputs.dtype)\n"
    "        m = mask.reshape(batch, longest, *([1] * len(feats))).to(inputs.dtype)\n"
    "        inputs = zero_padded * m + padding_value * (1 - m)\n"))}
