"""best.pt is written when the monitored value is lower than the best so far, whatever mode says."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"checkpoint_impl": _c["edited"]("checkpoint_impl",
                                         "better = (self.best is None or (value < self.best if self.mode == \"min\" else value > self.best))",
                                         "better = self.best is None or value < self.best")}
EXPECT = {"checkpoint": "fail"}
