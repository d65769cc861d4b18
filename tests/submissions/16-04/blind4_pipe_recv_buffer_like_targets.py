"""Rank 1 makes its receive buffer with ym.new_empty, i.e. in the targets' dtype (integer class labels,
or float32 targets for a float64 model) instead of the parameters' dtype. Breaks: "stage 0 maps a micro-batch
of r rows to activations of shape (r, `width`), in the parameters' dtype" with "Rank 1 receives each
micro-batch's activations (`dist.recv` into a buffer it makes)"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edit("pipeline_impl", (
    "act = torch.empty((ym.shape[0], width), dtype=p0.dtype, device=p0.device)",
    "act = ym.new_empty((ym.shape[0], width))"))}
