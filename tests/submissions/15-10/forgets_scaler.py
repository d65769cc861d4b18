"""A Trainer that does not save the GradScaler: the loss scale restarts from its initial value."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"resume_impl": _c["edited"]("resume_impl", """        "scaler": trainer.scaler.state_dict() if trainer.scaler is not None else None,""",
                                     """        "scaler": None,""")}
# only the checks with a GradScaler can see this
EXPECT = {"resume": "fail"}  # the other tasks are the reference's
