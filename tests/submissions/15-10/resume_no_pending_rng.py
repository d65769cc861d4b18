"""trainer_load_state_dict restores the generators but does not hand the snapshot to trainer._pending_rng:
with a loader whose iterator draws from the global generator, the resumed epoch's dropout differs."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"resume_impl": _c["edited"]("resume_impl", """    trainer._pending_rng = ckpt["rng"]
""", "")}
EXPECT = {"resume": "fail"}
