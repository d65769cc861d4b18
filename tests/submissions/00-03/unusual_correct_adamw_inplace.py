"""Correct, written differently (kept from the 2026-11-27 blind batch, issue #19): ScratchAdamW in torch's own
in-place form. The first moment moves with lerp_, the second with addcmul_, both bias corrections go into a
step size lr / (1 - b1^t) and a denominator sqrt(v) / sqrt(1 - b2^t) + eps, and one addcdiv_ applies the
update; "step" is a 0-dim float tensor bumped in place (+= 1), as torch.optim.AdamW keeps it. The other
examples step out of place; this one keeps the AdamW checks honest about the fused calls' last-bit differences
(relative 1e-12, not torch.equal) and about a step tensor that is mutated rather than replaced (a state_dict()
taken earlier shares it, so a resume check has to save a copy, as the probe's torch.save round trip does).
"""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = {t: "pass" for t in _c["TASKS"]}
CELLS = {"adamw_impl": '''
class ScratchAdamW(torch.optim.Optimizer):
    """Adam with bias correction and decoupled weight decay, as torch.optim.AdamW."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        for name, value in (("lr", lr), ("eps", eps), ("weight_decay", weight_decay)):
            if value < 0:
                raise ValueError(f"{name} must be >= 0, got {value}")
        for i, b in enumerate(betas):
            if not 0.0 <= b < 1.0:
                raise ValueError(f"betas[{i}] must be in [0, 1), got {b}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay})

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in (q for q in group["params"] if q.grad is not None):
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = torch.tensor(0.0)
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["step"] += 1
                t = float(state["step"])
                p.mul_(1 - group["lr"] * group["weight_decay"])
                state["exp_avg"].lerp_(p.grad, 1 - beta1)
                state["exp_avg_sq"].mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)
                step_size = group["lr"] / (1 - beta1 ** t)
                denom = (state["exp_avg_sq"].sqrt() / math.sqrt(1 - beta2 ** t)).add_(group["eps"])
                p.addcdiv_(state["exp_avg"], denom, value=-step_size)
'''}
