"""Held-out gap round (wrong): when max_steps stops a run inside an epoch, the Trainer still validates and
fires on_epoch_end for that unfinished epoch (it only breaks out of the batch loop)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"trainer_impl": _C["edit"](_C["TRAINER"], """            if not self.train_epoch():
                break
            if self.val_loader""", """            finished = self.train_epoch()
            if not finished:
                if self.val_loader is not None:
                    self.validate()
                self.call("on_epoch_end")
                break
            if self.val_loader""")}
EXPECT = {"trainer": "fail"}
