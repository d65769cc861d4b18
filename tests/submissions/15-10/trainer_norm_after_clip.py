"""The Trainer clips first and measures the gradient norm afterwards, so history's grad_norm and
last_grad_norm report the clipped norm (at most max_grad_norm) instead of the norm before clipping."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"trainer_impl": _c["edited"]("trainer_impl", """        if self.max_grad_norm is not None:
            norm = clip_grad_norm(params, self.max_grad_norm)
        else:
            grads = [p.grad.detach() for p in params if p.grad is not None]
            norm = (torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
                    if grads else torch.tensor(0.0))""", """        if self.max_grad_norm is not None:
            clip_grad_norm(params, self.max_grad_norm)
        grads = [p.grad.detach() for p in params if p.grad is not None]
        norm = (torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
                if grads else torch.tensor(0.0))""")}
EXPECT = {"trainer": "fail"}
