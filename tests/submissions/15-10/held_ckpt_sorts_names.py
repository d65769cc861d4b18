"""Held-out gap round (wrong): CheckpointCallback finds the oldest step files by sorting their NAMES: past step
999999 the names grow a digit and "step-1000000.pt" sorts before "step-999999.pt", so the newest is deleted."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"checkpoint_impl": _C["edit"](_C["CHECKPOINT"], "        files = self.step_files()\n",
                                       "        files = sorted(n for n in os.listdir(self.dirpath) if n.startswith(\"step-\") and n.endswith(\".pt\"))\n")}
EXPECT = {"checkpoint": "fail"}
