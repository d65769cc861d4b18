"""Held-out gap round (wrong): "callbacks" lists only the callbacks that have a state_dict (no None for the
others) and loading zips that list with every callback, so with a stateless callback first each state goes to
the wrong callback (an EMA or early-stopping state is lost on resume)."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"resume_impl": _C["edit"](_C["RESUME"], """[cb.state_dict() if hasattr(cb, "state_dict") else None for cb in trainer.callbacks]""",
                                   """[cb.state_dict() for cb in trainer.callbacks if hasattr(cb, "state_dict")]""")}
EXPECT = {"resume": "fail"}
