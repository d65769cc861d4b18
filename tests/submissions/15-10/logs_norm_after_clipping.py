"""The logged gradient norm is measured after clipping (so it never exceeds max_grad_norm)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", """            norm = clip_grad_norm(params, self.max_grad_norm)
""", """            clip_grad_norm(params, self.max_grad_norm)
            norm = clip_grad_norm(params, float("inf"))
""")}
EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "fail", "resume": "pass"}
