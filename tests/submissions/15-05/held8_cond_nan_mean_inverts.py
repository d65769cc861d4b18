"""Held-out gap round 8 (wrong): breaks "invert the batch when its mean pixel value is above 0.5, strictly": the
condition is written the other way round, torch.cond(x.mean() <= 0.5, keep, invert). Both agree on every finite
mean, but a batch whose mean is NaN (one image holds a NaN pixel) is not "above 0.5", so BranchyNet keeps it,
while this version inverts it and every other image of the batch gets different logits."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held8_cells.py")))

CELLS = {"cond_net_impl": _C["edit"](
    _C["COND"], "torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))",
    "torch.cond(x.mean() <= 0.5, lambda t: t.clone(), lambda t: 1.0 - t, (x,))")}
EXPECT = {"cond_net": "fail"}
