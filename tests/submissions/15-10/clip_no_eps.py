"""clip_grad_norm divides by the total norm without the 1e-6 of the formula (max_norm / total): a zero
gradient gives 0/0 = nan, and every clipped gradient is a little too large."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"clip_impl": _c["edited"]("clip_impl", "coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)",
                                   "coef = torch.clamp(max_norm / total, max=1.0)")}
EXPECT = {"clipping": "fail"}
