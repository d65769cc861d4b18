"""Held-out gap round (wrong): with keep_last=0 CheckpointCallback returns before saving anything, so no
last.pt is written either (keep_last counts step files only; last.pt is written at every save)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"checkpoint_impl": _C["edit"](_C["CHECKPOINT"], "        if step <= 0 or step % self.every_n_steps",
                                       "        if self.keep_last == 0 or step <= 0 or step % self.every_n_steps")}
EXPECT = {"checkpoint": "fail"}
