"""A Trainer whose checkpoints leave out the learning-rate scheduler: the lr restarts after a resume."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"resume_impl": _c["edited"]("resume_impl", """    if trainer.scheduler is not None and ckpt.get("scheduler") is not None:
        trainer.scheduler.load_state_dict(ckpt["scheduler"])
""", "")}
EXPECT = {"resume": "fail"}  # the other tasks are the reference's (the disabled-scaler check needs no scheduler)
