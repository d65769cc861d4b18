"""validate() stores and logs the metrics but returns nothing (the caller gets None)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", """        self.call("on_validation_end", metrics)
        return metrics""", """        self.call("on_validation_end", metrics)""")}
EXPECT = {"trainer": "fail"}
