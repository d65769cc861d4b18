"""Unusual but correct (gap round): MomentumSGD and ScratchAdamW fetch hyperparameters per group inside
the parameter loop, keep AdamW's step as a 0-dim float tensor, and write the updates out of place
(p.copy_(...)) instead of with fused in-place calls. (Round 30: the bias correction 1 / (1 - beta1**t) is a
number multiplied into the step, as torch folds it into addcdiv_'s value; m / (1 - beta1**t) held as a float16
tensor overflowed to inf for a float16 gradient of 65504, against the text.)"""
CELLS = {
    "sgd_impl": '''class MomentumSGD(torch.optim.Optimizer):
    """SGD with momentum, dampening, Nesterov and (L2) weight decay, as torch.optim.SGD."""

    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        if min(lr, momentum, weight_decay) < 0:
            raise ValueError("negative lr, momentum or weight_decay")
        if nesterov and not (momentum > 0 and dampening == 0):
            raise ValueError("nesterov needs momentum > 0 and no dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov})

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in [q for q in group["params"] if q.grad is not None]:
                d = p.grad + group["weight_decay"] * p if group["weight_decay"] else p.grad.clone()
                if group["momentum"]:
                    st = self.state[p]
                    if "momentum_buffer" in st and st["momentum_buffer"] is not None:
                        st["momentum_buffer"] = group["momentum"] * st["momentum_buffer"] + (1 - group["dampening"]) * d
                    else:
                        st["momentum_buffer"] = d.clone()
                    d = d + group["momentum"] * st["momentum_buffer"] if group["nesterov"] else st["momentum_buffer"]
                p.copy_(p - group["lr"] * d)
''',
    "adamw_impl": '''class ScratchAdamW(torch.optim.Optimizer):
    """Adam with bias correction and decoupled weight decay, as torch.optim.AdamW."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        if lr < 0 or eps < 0 or weight_decay < 0 or not (0 <= betas[0] < 1 and 0 <= betas[1] < 1):
            raise ValueError("bad AdamW hyperparameters")
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay})

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                st = self.state[p]
                if len(st) == 0:
                    st["step"] = torch.tensor(0.0)
                    st["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    st["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                st["step"] = st["step"] + 1
                t = float(st["step"])
                b1, b2 = group["betas"]
                g = p.grad
                p.copy_(p * (1 - group["lr"] * group["weight_decay"]))
                st["exp_avg"].copy_(b1 * st["exp_avg"] + (1 - b1) * g)
                st["exp_avg_sq"].copy_(b2 * st["exp_avg_sq"] + (1 - b2) * g * g)
                root_v_hat = st["exp_avg_sq"].sqrt() / math.sqrt(1 - b2 ** t)
                p.copy_(p - (group["lr"] / (1 - b1 ** t)) * (st["exp_avg"] / (root_v_hat + group["eps"])))
''',
}
EXPECT = {"sgd": "pass", "adamw": "pass"}
