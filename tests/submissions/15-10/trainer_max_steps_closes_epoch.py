"""When max_steps is reached inside an epoch, the Trainer still validates and fires on_epoch_end for that
unfinished epoch (and moves on to the next epoch number)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", """            if not self.train_epoch():
                break  # max_steps reached inside the epoch: leave it unfinished
            if self.val_loader is not None:""", """            self.train_epoch()
            if self.val_loader is not None:""")}
EXPECT = {"trainer": "fail"}
