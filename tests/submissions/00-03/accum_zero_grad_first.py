"""Calls model.zero_grad() before accumulating, so gradients already in .grad are thrown away."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("accumulate")
CELLS = {"accumulate_impl": _c["edited"]("accumulate_impl", "    total = 0.0\n",
                                         "    total = 0.0\n    model.zero_grad()\n")}
