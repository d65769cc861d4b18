"""Held-out gap round 8 (wrong): breaks "export `model` (one tensor argument ...) on `example`": to avoid a
batch-1 example the function exports on torch.rand(2, 1, 28, 28), the shape of this notebook's images, so any
model whose input is not a 1x28x28 image (a flat 20-feature vector, a 3-channel 8x8 image) cannot be exported."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

CELLS = {"save_load_impl": _C["edit"](
    _C["SAVE"], "torch.export.export(model, (example,),", "torch.export.export(model, (torch.rand(2, 1, 28, 28),),")}
EXPECT = {"save_load": "fail"}
