"""clip_grad_norm multiplies by max_norm / (total + 1e-6) without capping the factor at 1: small gradients
are scaled UP to max_norm (the notebook says they are never scaled up)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"clip_impl": _c["edited"]("clip_impl", "coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)",
                                   "coef = max_norm / (total + 1e-6)")}
EXPECT = {"clipping": "fail"}
