"""Held-out gap round (wrong): clip_grad_norm walks `parameters` twice (once to measure, once to scale):
with a generator such as model.parameters() the second walk finds nothing and no gradient is clipped."""
from pathlib import Path
import runpy

_C = runpy.run_path(str(Path(__file__).with_name("_held_cells.py")))

CELLS = {"clip_impl": _C["edit"](_C["CLIP"], """    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g.detach()) for g in grads]))
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(coef.to(g.dtype))""", """    norms = [torch.linalg.vector_norm(p.grad.detach()) for p in parameters if p.grad is not None]
    if not norms:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack(norms))
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad.mul_(coef.to(p.grad.dtype))""")}
EXPECT = {"clipping": "fail"}
