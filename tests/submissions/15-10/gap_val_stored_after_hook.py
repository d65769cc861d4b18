"""Gap-hunting round (issue 39, 2026-12-01): validate fires on_validation_end before it stores trainer.metrics and appends to val_history: a callback reading them sees the previous epoch. Breaks: "store metrics ..., append ..., switch back to train(), fire on_validation_end"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", '        self.metrics = metrics\n        self.val_history.append({"step": self.global_step, "epoch": self.epoch, **metrics})\n        self.call("on_validation_end", metrics)\n', '        self.call("on_validation_end", metrics)\n        self.metrics = metrics\n        self.val_history.append({"step": self.global_step, "epoch": self.epoch, **metrics})\n')}
EXPECT = {"trainer": "fail"}
