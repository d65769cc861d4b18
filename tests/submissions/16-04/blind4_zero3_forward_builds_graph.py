"""The forward is run with autograd on (the same helper as the backward, parameters requiring grad, no
torch.no_grad), so each kept input carries a graph that holds the earlier layers' gathered parameters alive
until the backward. Breaks: "So when `layers[i]` runs, no parameter gathered for another layer is still alive
..., and none is alive after the call returns: keep no reference in a variable, in `state` or in an autograd
graph."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edit("zero3_impl", (
    "    with torch.no_grad():\n"
    "        for i in range(len(layers)):\n"
    "            inputs.append(h)\n"
    "            h = layers[i](gathered(i, False), h)\n",
    "    for i in range(len(layers)):\n"
    "        inputs.append(h)\n"
    "        h = layers[i](gathered(i, True), h)\n"))}
