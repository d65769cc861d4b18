"""eps added under the square root, sqrt(v_hat + eps), instead of after it."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("adamw")
CELLS = {"adamw_impl": _c["edited"]("adamw_impl", "denom = v.sqrt() / math.sqrt(1 - b2 ** t) + eps",
                                    "denom = (v / (1 - b2 ** t) + eps).sqrt()")}
