"""Starts the momentum buffer at zero and always applies (1 - dampening): the first step is damped too."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("sgd")
CELLS = {"sgd_impl": _c["edited"]("sgd_impl", """                    if buf is None:
                        buf = d.clone()
                        state["momentum_buffer"] = buf
                    else:
                        buf.mul_(mu).add_(d, alpha=1 - tau)""", """                    if buf is None:
                        buf = torch.zeros_like(d)
                        state["momentum_buffer"] = buf
                    buf.mul_(mu).add_(d, alpha=1 - tau)""")}
