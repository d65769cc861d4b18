"""Keeps the momentum buffers in a dict of its own instead of self.state, so state_dict() does not save them."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("sgd")
CELLS = {"sgd_impl": '''class MomentumSGD(torch.optim.Optimizer):
    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        if lr < 0 or momentum < 0 or weight_decay < 0:
            raise ValueError("negative hyperparameter")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("nesterov needs momentum and no dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov))
        self.velocity = {}

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                d = p.grad + group["weight_decay"] * p if group["weight_decay"] else p.grad
                if group["momentum"]:
                    if p not in self.velocity:
                        self.velocity[p] = d.clone()
                    else:
                        self.velocity[p] = group["momentum"] * self.velocity[p] + (1 - group["dampening"]) * d
                    v = self.velocity[p]
                    d = d + group["momentum"] * v if group["nesterov"] else v
                p.sub_(group["lr"] * d)
'''}
