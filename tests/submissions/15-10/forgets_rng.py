"""A Trainer that does not save/restore the random generators: dropout and data noise change after resuming."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"resume_impl": _c["edited"]("resume_impl", """    restore_rng_state(ckpt["rng"])
    trainer._pending_rng = ckpt["rng"]
""", "")}
EXPECT = {"resume": "fail"}  # the other tasks are the reference's (the disabled-scaler check needs no RNG)
