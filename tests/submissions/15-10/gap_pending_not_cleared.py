"""Gap-hunting round (issue 39, 2026-12-01): train_epoch restores _pending_rng but never sets it back to None, so every later epoch restores the same snapshot again. Breaks: "restore it with restore_rng_state and set it to None"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", '            restore_rng_state(self._pending_rng)\n            self._pending_rng = None', '            restore_rng_state(self._pending_rng)')}
EXPECT = {"trainer": "fail"}
