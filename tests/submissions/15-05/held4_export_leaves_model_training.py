"""Held-out gap round 4 (wrong): breaks "exports `model`" by changing the caller's model: it puts the model in
eval mode to export and then calls model.train(), so a model handed over in eval mode comes back in training
mode (Dropout active, BatchNorm updating its statistics) and the caller's own eager outputs change."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"export_dynamic_impl": _C["edit"](
    _C["EXPORT"], "    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n",
    "    model.eval()\n"
    "    program = torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n"
    "    model.train()\n"
    "    return program\n")}
EXPECT = {"export_dynamic": "fail"}
