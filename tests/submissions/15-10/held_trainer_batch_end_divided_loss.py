"""Held-out gap round (wrong): on_batch_end receives the loss divided by accum_steps (the value that went into
backward), not the batch's loss."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"trainer_impl": _C["edit"](_C["TRAINER"], 'self.call("on_batch_end", batch, batch_idx, value)',
                                    'self.call("on_batch_end", batch, batch_idx, float(scaled.detach()))')}
EXPECT = {"trainer": "fail"}
