"""Gap-hunting round (issue 39, 2026-12-01): fit fires on_fit_start before it puts the model in train() mode and drops stale gradients. Breaks: "fit first puts the model in train() mode ... and drops gradients ..., then fires on_fit_start"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", '        self.model.train()\n        self.optimizer.zero_grad(set_to_none=True)\n        self.call("on_fit_start")', '        self.call("on_fit_start")\n        self.model.train()\n        self.optimizer.zero_grad(set_to_none=True)')}
EXPECT = {"trainer": "fail"}
