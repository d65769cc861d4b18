"""Held-out gap round (wrong): the checkpoint leaves out "history", so a resumed run's curves restart at the
resume point (the text lists "history" among the keys, "so the curves continue after a resume")."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"resume_impl": _C["edit"](_C["edit"](_C["RESUME"], """        "history": [dict(r) for r in trainer.history],
""", ""), """    trainer.history = [dict(r) for r in ckpt.get("history", [])]
""", "")}
EXPECT = {"resume": "fail"}
