"""A parameter whose .grad is None is treated as having a zero gradient: it is still decayed, moved by its old
moments and given state."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("adamw")
CELLS = {"adamw_impl": _c["edited"]("adamw_impl", "if p.grad is None:\n                    continue\n                g = p.grad",
                                    "g = p.grad if p.grad is not None else torch.zeros_like(p)")}
