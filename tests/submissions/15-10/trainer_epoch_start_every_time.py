"""train_epoch fires on_epoch_start at every call, also for an epoch resumed in the middle."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", """        if self.batch_in_epoch == 0:
            self.call("on_epoch_start")""", """        self.call("on_epoch_start")""")}
EXPECT = {"trainer": "fail"}
