"""EMACallback updates at every on_batch_end, also on batches without an optimizer step (accumulation)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"callbacks_impl": _c["edited"]("callbacks_impl", """        if trainer.global_step == self.last_step:
            return  # no optimizer step on this batch
""", "")}
EXPECT = {"callbacks": "fail"}
