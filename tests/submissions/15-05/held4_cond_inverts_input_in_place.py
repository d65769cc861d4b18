"""Held-out gap round 4 (wrong): breaks "computes exactly what `BranchyNet` computes": the logits are right, but
the inversion is done in place on the caller's tensor (x.mul_(1 - 2f).add_(f) with f the 0/1 decision), so
after net(bright) the caller's batch holds 1 - bright: BranchyNet never writes to its input."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"cond_net_impl": _C["edit"](
    _C["COND"], "        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))\n",
    "        flip = (x.mean() > 0.5).to(x.dtype)\n        x.mul_(1 - 2 * flip).add_(flip)\n")}
EXPECT = {"cond_net": "fail"}
