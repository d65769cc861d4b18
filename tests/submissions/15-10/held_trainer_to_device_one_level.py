"""Held-out gap round (wrong): to_device moves tensors one level deep only: a tensor inside a dict inside a
list (or a tuple inside a tuple) stays where it was, although every batch is moved "whatever its structure"."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"trainer_impl": _C["edit"](_C["TRAINER"], """        if isinstance(batch, dict):
            return {k: self.to_device(v) for k, v in batch.items()}
        if isinstance(batch, list):
            return [self.to_device(v) for v in batch]
        if isinstance(batch, tuple):
            return tuple(self.to_device(v) for v in batch)""", """        mv = lambda v: v.to(self.device) if isinstance(v, torch.Tensor) else v
        if isinstance(batch, dict):
            return {k: mv(v) for k, v in batch.items()}
        if isinstance(batch, list):
            return [mv(v) for v in batch]
        if isinstance(batch, tuple):
            return tuple(mv(v) for v in batch)""")}
EXPECT = {"trainer": "fail"}
