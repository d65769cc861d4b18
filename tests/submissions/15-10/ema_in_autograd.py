"""The EMA is computed with out-of-place ops on the parameters themselves, outside no_grad: the shadow
tensors require grad and carry an ever-growing autograd graph."""
CELLS = {"callbacks_impl": '''class EarlyStopping(Callback):
    def __init__(self, monitor: str = "val_loss", patience: int = 3, min_delta: float = 0.0, mode: str = "min"):
        self.monitor, self.patience, self.min_delta, self.mode = monitor, patience, min_delta, mode
        self.best = None
        self.wait = 0

    def improved(self, value: float) -> bool:
        if self.best is None:
            return True
        if self.mode == "min":
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta

    def on_validation_end(self, trainer, metrics):
        value = float(metrics[self.monitor])
        if self.improved(value):
            self.best = value
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                trainer.should_stop = True

    def state_dict(self) -> dict:
        return {"best": self.best, "wait": self.wait}

    def load_state_dict(self, state: dict) -> None:
        self.best, self.wait = state["best"], state["wait"]


class EMACallback(Callback):
    def __init__(self, decay: float = 0.99):
        self.decay = decay
        self.shadow = None
        self.num_updates = 0
        self.last_step = None

    def on_fit_start(self, trainer):
        if self.last_step is None:
            self.last_step = trainer.global_step

    def on_batch_end(self, trainer, batch, batch_idx, loss):
        if trainer.global_step == self.last_step:
            return
        self.last_step = trainer.global_step
        params = list(trainer.model.parameters())
        if self.shadow is None:
            self.shadow = [p * 1.0 for p in params]
        else:
            self.shadow = [self.decay * s + (1.0 - self.decay) * p for s, p in zip(self.shadow, params)]
        self.num_updates += 1

    def copy_to(self, module: nn.Module) -> None:
        if self.shadow is None:
            return
        with torch.no_grad():
            for p, s in zip(module.parameters(), self.shadow):
                p.copy_(s)

    def state_dict(self) -> dict:
        return {"decay": self.decay, "num_updates": self.num_updates, "last_step": self.last_step,
                "shadow": None if self.shadow is None else [s.detach().clone() for s in self.shadow]}

    def load_state_dict(self, state: dict) -> None:
        self.decay, self.num_updates, self.last_step = state["decay"], state["num_updates"], state["last_step"]
        self.shadow = None if state["shadow"] is None else [s.clone() for s in state["shadow"]]
'''}
EXPECT = {"callbacks": "fail"}
