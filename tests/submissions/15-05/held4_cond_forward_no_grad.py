"""Held-out gap round 4 (wrong): breaks "an `nn.Module` that computes exactly what `BranchyNet` computes": the
whole forward runs under torch.no_grad() (to keep torch.cond's backward out of the way), so the logits carry no
autograd graph: loss.backward() on them raises and fc1/fc2 can never be trained or fine-tuned."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held4_cells.py")))

CELLS = {"cond_net_impl": _C["edit"](
    _C["COND"], "        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))\n        return",
    "        with torch.no_grad():\n"
    "            x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))\n"
    "            return")}
EXPECT = {"cond_net": "fail"}
