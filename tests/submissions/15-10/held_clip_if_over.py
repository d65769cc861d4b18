"""Held-out gap round (wrong): clip_grad_norm scales only `if total > max_norm`: with a nan gradient entry the
total is nan, the test is False and nothing is scaled, where torch.nn.utils.clip_grad_norm_ (the reference)
multiplies every gradient by the nan factor."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"clip_impl": _C["edit"](_C["CLIP"], """    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(coef.to(g.dtype))""", """    if total > max_norm:
        coef = max_norm / (total + 1e-6)
        with torch.no_grad():
            for g in grads:
                g.mul_(coef.to(g.dtype))""")}
EXPECT = {"clipping": "fail"}
