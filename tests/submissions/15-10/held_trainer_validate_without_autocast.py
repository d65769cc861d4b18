"""Held-out gap round (wrong): validate() runs loss_fn without the autocast context, so with precision="bf16"
the validation loss is a float32 one, not "(and the same autocast)"."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"trainer_impl": _C["edit"](_C["TRAINER"], """                with self.autocast():
                    losses.append(float(self.loss_fn(self.model, batch)))""", """                losses.append(float(self.loss_fn(self.model, batch)))""")}
EXPECT = {"trainer": "fail"}
