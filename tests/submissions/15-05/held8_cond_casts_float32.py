"""Held-out gap round 8 (wrong): breaks "an `nn.Module` that computes exactly what `BranchyNet` computes": forward
starts with `x = x.float()` (to accept integer pixels), so after `.double()` the model, which BranchyNet runs
fine on a float64 batch, raises a dtype mismatch in fc1 (float input, double weight)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

CELLS = {"cond_net_impl": _C["edit"](_C["COND"], "    def forward(self, x):\n",
                                     "    def forward(self, x):\n        x = x.float()\n")}
EXPECT = {"cond_net": "fail"}
