"""Cells of one held-out writer's own 15-10 solution (not the reference), which the held_* specs edit.

Not a spec itself (the leading underscore keeps it out of the verdict runs)."""
from pathlib import Path

TRAINER = '''
class Trainer:
    def __init__(self, model, optimizer, train_loader, loss_fn, *, scheduler=None, scaler=None,
                 val_loader=None, callbacks=(), max_epochs: int = 1, max_steps: int | None = None,
                 accum_steps: int = 1, max_grad_norm: float | None = None, precision: str = "32",
                 device=None, progress: bool = False):
        if precision not in ("32", "bf16", "fp16"):
            raise ValueError(f"precision must be '32', 'bf16' or 'fp16', got {precision!r}")
        self.device = torch.device(device) if device is not None else next(model.parameters()).device
        self.model = model.to(self.device)
        self.optimizer, self.train_loader, self.loss_fn = optimizer, train_loader, loss_fn
        self.scheduler, self.val_loader, self.callbacks = scheduler, val_loader, list(callbacks)
        self.max_epochs, self.max_steps, self.accum_steps = max_epochs, max_steps, accum_steps
        self.max_grad_norm, self.precision, self.progress = max_grad_norm, precision, progress
        if scaler is None and precision == "fp16":
            scaler = torch.amp.GradScaler(self.device.type, enabled=self.device.type == "cuda")
        self.scaler = scaler
        self.global_step = 0
        self.epoch = 0
        self.batch_in_epoch = 0
        self.should_stop = False
        self.last_grad_norm = float("nan")
        self.history, self.val_history, self.metrics = [], [], {}
        self._batch_losses = []
        self._pending_rng = None

    def call(self, hook: str, *args) -> None:
        for cb in self.callbacks:
            fn = getattr(cb, hook, None)
            if fn is not None:
                fn(self, *args)

    def to_device(self, batch):
        if isinstance(batch, torch.Tensor):
            return batch.to(self.device)
        if isinstance(batch, dict):
            return {k: self.to_device(v) for k, v in batch.items()}
        if isinstance(batch, list):
            return [self.to_device(v) for v in batch]
        if isinstance(batch, tuple):
            return tuple(self.to_device(v) for v in batch)
        return batch

    def autocast(self):
        if self.precision == "32":
            return contextlib.nullcontext()
        dtype = torch.bfloat16 if self.precision == "bf16" else torch.float16
        return torch.autocast(self.device.type, dtype=dtype)

    def steps_done(self) -> bool:
        return self.max_steps is not None and self.global_step >= self.max_steps

    def fit(self, ckpt_path=None):
        if ckpt_path is not None:
            self.load_checkpoint(ckpt_path)
        self.model.train()
        self.optimizer.zero_grad(set_to_none=True)
        self.call("on_fit_start")
        # (round 14s: an epoch-end checkpoint used to be moved to the start of the next epoch here, which undoes
        # the next iterator's draw from the global generator when the pending snapshot is restored after it; the
        # loop now starts from the restored epoch and batch_in_epoch, as the text says)
        while self.epoch < self.max_epochs and not self.steps_done():
            fresh = self.batch_in_epoch == 0
            if fresh:
                self.call("on_epoch_start")
            if not self.train_epoch():
                break
            if self.val_loader is not None:
                self.validate()
            self.call("on_epoch_end")
            self.epoch += 1
            self.batch_in_epoch = 0
            if self.should_stop:
                break
        self.call("on_fit_end")
        return self

    def train_epoch(self) -> bool:
        sampler = getattr(self.train_loader, "sampler", None)
        if hasattr(sampler, "set_epoch"):
            sampler.set_epoch(self.epoch)
        it = iter(self.train_loader)
        if self._pending_rng is not None:
            restore_rng_state(self._pending_rng)
            self._pending_rng = None
        n = len(self.train_loader)
        for batch in it:
            batch_idx = self.batch_in_epoch
            batch = self.to_device(batch)
            self.call("on_batch_start", batch, batch_idx)
            with self.autocast():
                loss = self.loss_fn(self.model, batch)
            scaled = loss / self.accum_steps
            if self.scaler is not None:
                self.scaler.scale(scaled).backward()
            else:
                scaled.backward()
            self.call("on_after_backward")
            value = float(loss.detach())
            self._batch_losses.append(value)
            self.batch_in_epoch += 1
            if self.batch_in_epoch % self.accum_steps == 0 or self.batch_in_epoch == n:
                self.optimizer_step()
            self.call("on_batch_end", batch, batch_idx, value)
            if self.steps_done() and self.batch_in_epoch < n:
                return False
        return True

    def optimizer_step(self) -> None:
        if self.scaler is not None:
            self.scaler.unscale_(self.optimizer)
        params = [p for p in self.model.parameters()]
        if self.max_grad_norm is not None:
            norm = clip_grad_norm(params, self.max_grad_norm)
        else:
            grads = [p.grad.detach().norm() for p in params if p.grad is not None]
            norm = torch.stack(grads).norm() if grads else torch.tensor(0.0)
        self.last_grad_norm = float(norm)
        self.call("on_before_optimizer_step")
        lr = float(self.optimizer.param_groups[0]["lr"])
        if self.scaler is not None:
            self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        if self.scheduler is not None:
            self.scheduler.step()
        self.global_step += 1
        losses = self._batch_losses
        self.history.append({"step": self.global_step, "epoch": self.epoch,
                             "loss": sum(losses) / len(losses), "lr": lr, "grad_norm": self.last_grad_norm})
        self._batch_losses = []

    def validate(self) -> dict:
        self.model.eval()
        losses = []
        with torch.no_grad():
            for batch in self.val_loader:
                batch = self.to_device(batch)
                with self.autocast():
                    losses.append(float(self.loss_fn(self.model, batch)))
        metrics = {"val_loss": sum(losses) / len(losses) if losses else float("nan")}  # round 21: no batches
        self.metrics = metrics
        self.val_history.append({"step": self.global_step, "epoch": self.epoch, "val_loss": metrics["val_loss"]})
        self.model.train()
        self.call("on_validation_end", metrics)
        return metrics

    def state_dict(self) -> dict:
        ckpt = trainer_state_dict(self)
        self.call("on_save_checkpoint", ckpt)
        return ckpt

    def load_state_dict(self, ckpt: dict) -> None:
        trainer_load_state_dict(self, ckpt)
        self.call("on_load_checkpoint", ckpt)

    def save_checkpoint(self, path) -> None:
        atomic_save(self.state_dict(), path)

    def load_checkpoint(self, path) -> None:
        self.load_state_dict(torch.load(path, map_location="cpu", weights_only=False))
'''

RESUME = '''
def trainer_state_dict(trainer) -> dict:
    sampler = getattr(trainer.train_loader, "sampler", None)
    return {
        "model": trainer.model.state_dict(),
        "optimizer": trainer.optimizer.state_dict(),
        "scheduler": None if trainer.scheduler is None else trainer.scheduler.state_dict(),
        "scaler": None if trainer.scaler is None else trainer.scaler.state_dict(),
        "global_step": trainer.global_step,
        "epoch": trainer.epoch,
        "batch_in_epoch": trainer.batch_in_epoch,
        "rng": capture_rng_state(),
        "sampler": sampler.state_dict() if hasattr(sampler, "state_dict") else None,
        "callbacks": [cb.state_dict() if hasattr(cb, "state_dict") else None for cb in trainer.callbacks],
        "history": [dict(r) for r in trainer.history],
    }


def trainer_load_state_dict(trainer, ckpt: dict) -> None:
    trainer.model.load_state_dict(ckpt["model"])
    trainer.optimizer.load_state_dict(ckpt["optimizer"])
    if trainer.scheduler is not None and ckpt.get("scheduler") is not None:
        trainer.scheduler.load_state_dict(ckpt["scheduler"])
    if trainer.scaler is not None and ckpt.get("scaler"):
        trainer.scaler.load_state_dict(ckpt["scaler"])
    trainer.global_step = ckpt["global_step"]
    trainer.epoch = ckpt["epoch"]
    trainer.batch_in_epoch = ckpt["batch_in_epoch"]
    sampler = getattr(trainer.train_loader, "sampler", None)
    if ckpt.get("sampler") is not None and hasattr(sampler, "load_state_dict"):
        sampler.load_state_dict(ckpt["sampler"])
    for cb, st in zip(trainer.callbacks, ckpt["callbacks"]):
        if st is not None and hasattr(cb, "load_state_dict"):
            cb.load_state_dict(st)
    trainer.history = [dict(r) for r in ckpt.get("history", [])]
    restore_rng_state(ckpt["rng"])
    trainer._pending_rng = ckpt["rng"]
'''

SAMPLER = '''
class ResumableRandomSampler(Sampler):
    def __init__(self, num_samples: int, seed: int = 0):
        self.num_samples = int(num_samples)
        self.seed = int(seed)
        self.epoch = 0
        self.pos = 0
        self._resume_pos = None

    def __len__(self) -> int:
        return self.num_samples

    def permutation(self, epoch: int) -> list:
        g = torch.Generator()
        g.manual_seed(self.seed * 1_000_003 + int(epoch))
        return torch.randperm(self.num_samples, generator=g).tolist()

    def set_epoch(self, epoch: int) -> None:
        if int(epoch) != self.epoch:
            self.epoch = int(epoch)
            self.pos = 0
            self._resume_pos = None

    def __iter__(self):
        order = self.permutation(self.epoch)
        start = self._resume_pos or 0
        self._resume_pos = None
        self.pos = start
        for i in order[start:]:
            self.pos += 1
            yield i

    def state_dict(self) -> dict:
        return {"epoch": self.epoch, "pos": self.pos, "seed": self.seed, "num_samples": self.num_samples}

    def load_state_dict(self, state: dict) -> None:
        self.epoch = int(state["epoch"])
        self.pos = int(state["pos"])
        self._resume_pos = self.pos


def make_loader(dataset, batch_size: int, seed: int = 0) -> DataLoader:
    return DataLoader(dataset, batch_size=batch_size, sampler=ResumableRandomSampler(len(dataset), seed),
                      num_workers=0, generator=torch.Generator().manual_seed(seed))
'''

CHECKPOINT = '''
def atomic_save(obj, path) -> None:
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".pt")
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


class CheckpointCallback(Callback):
    def __init__(self, dirpath, every_n_steps: int = 1, keep_last: int = 3, monitor: str | None = None,
                 mode: str = "min"):
        self.dirpath, self.every_n_steps, self.keep_last = os.fspath(dirpath), every_n_steps, keep_last
        self.monitor, self.mode = monitor, mode
        self.best = None
        self.last_saved_step = None
        os.makedirs(self.dirpath, exist_ok=True)

    def step_files(self):
        found = []
        for name in os.listdir(self.dirpath):
            m = re.fullmatch(r"step-(\\d+)\\.pt", name)
            if m:
                found.append((int(m.group(1)), name))
        return [name for _, name in sorted(found)]

    def on_batch_end(self, trainer, batch, batch_idx, loss):
        step = trainer.global_step
        if step <= 0 or step % self.every_n_steps or step == self.last_saved_step:
            return
        self.last_saved_step = step  # before state_dict(): the checkpoint counts itself as saved (round 18)
        ckpt = trainer.state_dict()
        atomic_save(ckpt, os.path.join(self.dirpath, f"step-{step:06d}.pt"))
        atomic_save(ckpt, os.path.join(self.dirpath, "last.pt"))
        files = self.step_files()
        for name in files[:max(0, len(files) - self.keep_last)]:
            os.remove(os.path.join(self.dirpath, name))

    def on_validation_end(self, trainer, metrics):
        if self.monitor is None or self.monitor not in metrics:
            return
        value = float(metrics[self.monitor])
        better = self.best is None or (value < self.best if self.mode == "min" else value > self.best)
        if better:
            self.best = value
            atomic_save(trainer.state_dict(), os.path.join(self.dirpath, "best.pt"))

    def state_dict(self) -> dict:
        return {"best": self.best, "last_saved_step": self.last_saved_step}

    def load_state_dict(self, state: dict) -> None:
        self.best, self.last_saved_step = state["best"], state["last_saved_step"]
'''

CLIP = '''
def clip_grad_norm(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g.detach()) for g in grads]))
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(coef.to(g.dtype))
    return total
'''


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, (old, text.count(old))
    return text.replace(old, new)
