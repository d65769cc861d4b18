"""EarlyStopping counts a value equal to best - min_delta as an improvement (<= instead of <)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"callbacks_impl": _c["edited"]("callbacks_impl", """            return value < self.best - self.min_delta
        return value > self.best + self.min_delta""", """            return value <= self.best - self.min_delta
        return value >= self.best + self.min_delta""")}
EXPECT = {"callbacks": "fail"}
