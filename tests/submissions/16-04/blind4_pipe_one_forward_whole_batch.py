"""Rank 0 runs its stage once on the whole batch and sends slices of that output; every backward goes
through the one shared graph (retain_graph). Same gradients for row-wise stages, not for a stage that mixes
rows (batch norm). Breaks: "rank 0 runs the M forwards of its stage, sending each micro-batch's activations
to rank 1"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edit("pipeline_impl", (
    "        outs = []\n"
    "        for xm in torch.tensor_split(data, M):\n"
    "            out = stage(xm)\n"
    "            dist.send(out.detach().contiguous(), 1)\n"
    "            outs.append(out)\n",
    "        outs = list(torch.tensor_split(stage(data), M))\n"
    "        for out in outs:\n"
    "            dist.send(out.detach().contiguous(), 1)\n"),
    ("out.backward(g)", "out.backward(g, retain_graph=True)"))}
