"""Gap-hunting round (issue 39, 2026-12-01): backward runs inside the autocast block. Breaks: "Backward runs outside autocast"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", '                with self.autocast():\n                    loss = self.loss_fn(self.model, batch)\n                scaled = loss / self.accum_steps\n                if self.scaler is not None:\n                    scaled = self.scaler.scale(scaled)\n                scaled.backward()', '                with self.autocast():\n                    loss = self.loss_fn(self.model, batch)\n                    scaled = loss / self.accum_steps\n                    if self.scaler is not None:\n                        scaled = self.scaler.scale(scaled)\n                    scaled.backward()')}
EXPECT = {"trainer": "fail"}
