"""The EMA's first update keeps p.detach() (no clone): the shadow shares storage with the live weights, so
it follows the model instead of averaging it."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"callbacks_impl": _c["edited"]("callbacks_impl", "self.shadow = [w.clone() for w in weights]",
                                        "self.shadow = list(weights)")}
EXPECT = {"callbacks": "fail"}
