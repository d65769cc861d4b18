"""EarlyStopping in mode "max" subtracts min_delta (value > best - min_delta), so a small drop still counts
as an improvement."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"callbacks_impl": _c["edited"]("callbacks_impl", "return value > self.best + self.min_delta",
                                        "return value > self.best - self.min_delta")}
EXPECT = {"callbacks": "fail"}
