"""Gap-hunting round (issue 39, 2026-12-01): trainer_load_state_dict only puts the snapshot in trainer._pending_rng and does not restore the generators itself: right after load_state_dict they are still scrambled. Breaks: "restore the RNGs, and put the snapshot in trainer._pending_rng"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"resume_impl": _c["edited"]("resume_impl", '    restore_rng_state(ckpt["rng"])\n    trainer._pending_rng = ckpt["rng"]', '    trainer._pending_rng = ckpt["rng"]')}
EXPECT = {"resume": "fail"}
