"""Gap-hunting round (issue 39, 2026-12-01): the Trainer creates the epoch's iterator and only then calls sampler.set_epoch (harmless with a lazy generator sampler, wrong with one that fixes its order when iter() is called). Breaks: "Call sampler.set_epoch(self.epoch) ... before creating the epoch's iterator"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", '        sampler = getattr(self.train_loader, "sampler", None)\n        if hasattr(sampler, "set_epoch"):\n            sampler.set_epoch(self.epoch)\n        if self.batch_in_epoch == 0:\n            self.call("on_epoch_start")\n        iterator = iter(self.train_loader)', '        if self.batch_in_epoch == 0:\n            self.call("on_epoch_start")\n        iterator = iter(self.train_loader)\n        sampler = getattr(self.train_loader, "sampler", None)\n        if hasattr(sampler, "set_epoch"):\n            sampler.set_epoch(self.epoch)')}
EXPECT = {"trainer": "fail"}
