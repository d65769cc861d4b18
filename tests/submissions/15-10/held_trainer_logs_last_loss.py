"""Held-out gap round (wrong): the history row's "loss" is the last batch's loss, not the mean of the batch
losses since the previous step (differs with accum_steps > 1)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"trainer_impl": _C["edit"](_C["TRAINER"], '"loss": sum(losses) / len(losses)', '"loss": losses[-1]')}
EXPECT = {"trainer": "fail"}
