"""A Trainer that steps the scheduler once more after loading it ("to catch up"): the schedule shifts by one."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"resume_impl": _c["edited"]("resume_impl", """        trainer.scheduler.load_state_dict(ckpt["scheduler"])
""", """        trainer.scheduler.load_state_dict(ckpt["scheduler"])
        trainer.scheduler.step()
""")}
EXPECT = {"resume": "fail"}  # the other tasks are the reference's (the disabled-scaler check needs no scheduler)
