"""Held-out gap round (wrong): on a resumed pass `pos` counts only the indices this pass handed out (from 0),
not the position in the epoch's permutation, so a state_dict() taken after a resume (a second interruption
in the same epoch) sends the next resume back to the wrong place."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"sampler_impl": _C["edit"](_C["SAMPLER"], "        self.pos = start\n", "        self.pos = 0\n")}
EXPECT = {"sampler": "fail"}
