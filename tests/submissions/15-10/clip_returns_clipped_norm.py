"""clip_grad_norm returns the total norm measured AFTER clipping (the notebook asks for the norm before)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"clip_impl": _c["edited"]("clip_impl", """            g.mul_(coef.to(device=g.device, dtype=g.dtype))
    return total""", """            g.mul_(coef.to(device=g.device, dtype=g.dtype))
        total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, 2) for g in grads]), 2)
    return total""")}
EXPECT = {"clipping": "fail"}
