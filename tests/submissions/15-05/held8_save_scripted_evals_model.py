"""Held-out gap round 8 (wrong): breaks "script `model` with `torch.jit.script` ... and save it": the function
calls model.eval() first ("deployment is inference"), so the caller's model is left in eval mode and the saved
file is not the module it was given: a model in training mode with Dropout is saved as a deterministic
eval-mode module (its `training` flag reads False after torch.jit.load)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

CELLS = {"save_load_impl": _C["edit"](_C["SAVE"], "    torch.jit.save(torch.jit.script(model), path)\n",
                                      "    model.eval()\n    torch.jit.save(torch.jit.script(model), path)\n")}
EXPECT = {"save_load": "fail"}
