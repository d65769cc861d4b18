"""flatten_shard takes a shortcut when a single tensor splits evenly: it slices the reshaped input, so the
result is a view of the caller's tensor and writing into the shard changes the input. Breaks: "Return a new
1-D tensor (never a view of an input) with the inputs' dtype and device, and leave the inputs unchanged."
"""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"shard": "fail"}
CELLS = {"shard_impl": edit("shard_impl", (
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n",
    "    if len(tensors) == 1 and tensors[0].numel() % world == 0:\n"
    "        whole = tensors[0].reshape(-1)\n"
    "        step = whole.numel() // world\n"
    "        return whole[rank * step:(rank + 1) * step]\n"
    "    flat = torch.cat([t.reshape(-1) for t in tensors])\n"))}
