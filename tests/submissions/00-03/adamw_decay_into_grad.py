"""Adam with L2 weight decay instead of AdamW: lambda * p is added to the gradient that feeds the moments, so the
decay is divided by sqrt(v_hat) like the rest of the step."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("adamw")
CELLS = {"adamw_impl": _c["edited"]("adamw_impl", "p.mul_(1 - lr * wd)", "g = g.add(p, alpha=wd)")}
