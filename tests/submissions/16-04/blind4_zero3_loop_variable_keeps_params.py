"""The forward keeps the rebuilt parameters in a loop variable, so layer i's gathered parameters are still
alive while layer i+1's all-gather runs (they die only when the variable is rebound, after that gather). No
del. Breaks: "call `layers[i]` once on them and the previous layer's output, keep that input for the
backward, and drop the gathered parameters before the next all-gather."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edit("zero3_impl", (
    "            h = layers[i](gathered(i, False), h)\n",
    "            ps = gathered(i, False)\n"
    "            h = layers[i](ps, h)\n"))}
