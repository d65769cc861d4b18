"""With a GradScaler, the Trainer measures and clips the gradients BEFORE scaler.unscale_: the norm is the
scaled one and clipping acts on scaled gradients."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

_src = _c["edited"]("trainer_impl", """        if self.scaler is not None:
            self.scaler.unscale_(self.optimizer)
        params = [p""", """        params = [p""")
_src = _src.replace("""        self.last_grad_norm = float(norm)
""", """        if self.scaler is not None:
            self.scaler.unscale_(self.optimizer)
        self.last_grad_norm = float(norm)
""", 1)
CELLS = {"trainer_impl": _src}
EXPECT = {"trainer": "fail"}
