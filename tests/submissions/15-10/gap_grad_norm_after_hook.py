"""Gap-hunting round (issue 39, 2026-12-01): last_grad_norm is stored after on_before_optimizer_step fired, so the hook sees the previous step's norm. Breaks: "Store that norm in self.last_grad_norm before calling on_before_optimizer_step"."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", '        self.last_grad_norm = float(norm)\n        self.call("on_before_optimizer_step")\n', '        self.call("on_before_optimizer_step")\n        self.last_grad_norm = float(norm)\n')}
EXPECT = {"trainer": "fail"}
