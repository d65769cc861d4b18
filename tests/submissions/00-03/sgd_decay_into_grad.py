"""Adds the weight decay into p.grad in place, so the gradient the caller sees changes after step()."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("sgd")
CELLS = {"sgd_impl": _c["edited"]("sgd_impl", "d = d.add(p, alpha=wd)", "d = d.add_(p, alpha=wd)")}
