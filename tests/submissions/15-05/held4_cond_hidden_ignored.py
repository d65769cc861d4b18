"""Held-out gap round 4 (wrong): breaks "Write `CondBranchyNet(hidden=32)` ... It must have the same parameters
under the same names and shapes as `BranchyNet`": the constructor always builds 32 hidden units, so
CondBranchyNet(hidden=64).load_state_dict(BranchyNet(hidden=64).state_dict()) fails on the shapes."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

_src = _C["edit"](_C["COND"], "        self.fc1 = nn.Linear(28 * 28, hidden)\n", "        self.fc1 = nn.Linear(28 * 28, 32)\n")
CELLS = {"cond_net_impl": _C["edit"](_src, "        self.fc2 = nn.Linear(hidden, 10)\n", "        self.fc2 = nn.Linear(32, 10)\n")}
EXPECT = {"cond_net": "fail"}
