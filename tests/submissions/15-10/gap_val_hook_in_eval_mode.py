"""Gap-hunting round (issue 39, 2026-12-01): validate fires on_validation_end before switching back to train(): the hook sees the model in eval mode. Breaks: "switch back to train(), fire on_validation_end"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", '        self.model.train()\n        metrics = {"val_loss": sum(losses) / len(losses) if losses else float(\"nan\")}\n        self.metrics = metrics\n        self.val_history.append({"step": self.global_step, "epoch": self.epoch, **metrics})\n        self.call("on_validation_end", metrics)\n', '        metrics = {"val_loss": sum(losses) / len(losses) if losses else float(\"nan\")}\n        self.metrics = metrics\n        self.val_history.append({"step": self.global_step, "epoch": self.epoch, **metrics})\n        self.call("on_validation_end", metrics)\n        self.model.train()\n')}
EXPECT = {"trainer": "fail"}
