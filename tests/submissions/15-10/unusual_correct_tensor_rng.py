"""Blind batch of #19 (2026-11-26). Unusual but correct: clip through torch._foreach_norm; a sampler seeded
from a hash of (seed, epoch) whose __iter__ returns an inner generator; NumPy's key stored as a torch
tensor (the design tip); atomic_save serialising to memory first and writing with
NamedTemporaryFile(dir=...); step files sorted by number; checkpoints copied through a
torch.save/torch.load round trip."""
EXPECT = {'clipping': 'pass', 'sampler': 'pass', 'rng': 'pass', 'callbacks': 'pass', 'checkpoint': 'pass', 'trainer': 'pass', 'resume': 'pass'}
CELLS = {
    'clip_impl': r'''
def clip_grad_norm(parameters, max_norm: float) -> torch.Tensor:
    """Clip the gradients of ``parameters`` in place to a global L2 norm of at most ``max_norm``."""
    gs = [p.grad for p in list(parameters) if p.grad is not None]
    if len(gs) == 0:
        return torch.zeros(())
    with torch.no_grad():
        per = torch._foreach_norm(gs, 2)
        total = torch.stack([t.to(per[0]) for t in per]).pow(2).sum().sqrt()
        factor = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for g in gs:
            g.mul_(factor.to(g))
    return total
''',
    'sampler_impl': r'''
import hashlib as _hashlib


class ResumableRandomSampler(Sampler):
    """Shuffles range(num_samples) with an order fixed by (seed, epoch); can resume mid-epoch."""

    def __init__(self, num_samples: int, seed: int = 0):
        self.num_samples = int(num_samples)
        self.seed = int(seed)
        self.epoch = 0
        self.pos = 0
        self._resume_pos = None

    def __len__(self) -> int:
        return self.num_samples

    def permutation(self, epoch: int) -> list:
        digest = _hashlib.sha256(f"{self.seed}/{int(epoch)}".encode()).digest()
        gen = torch.Generator().manual_seed(int.from_bytes(digest[:7], "little"))
        return [int(i) for i in torch.randperm(self.num_samples, generator=gen)]

    def set_epoch(self, epoch: int) -> None:
        if epoch != self.epoch:
            self.epoch, self.pos, self._resume_pos = int(epoch), 0, None

    def __iter__(self):
        start, self._resume_pos = (self._resume_pos or 0), None
        rest = self.permutation(self.epoch)[start:]
        self.pos = start

        def gen():
            for k in rest:
                self.pos += 1
                yield k
        return gen()

    def state_dict(self) -> dict:
        return dict(epoch=self.epoch, pos=self.pos)

    def load_state_dict(self, state: dict) -> None:
        self.epoch = state["epoch"]
        self.pos = self._resume_pos = state["pos"]


def make_loader(dataset, batch_size: int, seed: int = 0) -> DataLoader:
    """A single-process DataLoader over ``dataset`` with a ResumableRandomSampler(len(dataset), seed)."""
    gen = torch.Generator()
    gen.manual_seed(seed)
    return DataLoader(dataset, batch_size, sampler=ResumableRandomSampler(len(dataset), seed=seed), generator=gen)
''',
    'rng_impl': r'''
def capture_rng_state() -> dict:
    """A snapshot of the torch, CUDA (if available), NumPy and Python random generators."""
    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    out = {"torch": torch.get_rng_state().clone(),
           "numpy": {"kind": kind, "keys": torch.from_numpy(keys.astype(np.int64)), "pos": int(pos),
                     "has_gauss": int(has_gauss), "gauss": float(gauss)},
           "python": random.getstate()}
    if torch.cuda.is_available():
        out["cuda"] = [s.clone() for s in torch.cuda.get_rng_state_all()]
    return out


def restore_rng_state(state: dict) -> None:
    """Put every generator back to the snapshot taken by capture_rng_state."""
    n = state["numpy"]
    np.random.set_state((n["kind"], n["keys"].numpy().astype(np.uint32), n["pos"], n["has_gauss"], n["gauss"]))
    random.setstate(state["python"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])
    torch.set_rng_state(state["torch"])
''',
    'checkpoint_impl': r'''
def atomic_save(obj, path) -> None:
    """torch.save(obj, path) such that path is never left partially written."""
    import io
    target = os.path.abspath(os.fspath(path))
    buf = io.BytesIO()
    torch.save(obj, buf)  # serialise first: a failure here touches no file at all
    tmp = None
    try:
        with tempfile.NamedTemporaryFile("wb", dir=os.path.dirname(target), delete=False,
                                         prefix=".partial-", suffix=".pt") as f:
            tmp = f.name
            f.write(buf.getbuffer())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
        tmp = None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


class CheckpointCallback(Callback):
    def __init__(self, dirpath, every_n_steps: int = 1, keep_last: int = 3, monitor: str | None = None,
                 mode: str = "min"):
        self.dirpath, self.every_n_steps, self.keep_last = os.fspath(dirpath), every_n_steps, keep_last
        self.monitor, self.mode = monitor, mode
        self.best = None
        self.last_saved_step = None
        os.makedirs(self.dirpath, exist_ok=True)

    def _prune(self):
        names = sorted((f for f in os.listdir(self.dirpath) if f.startswith("step-") and f.endswith(".pt")),
                       key=lambda f: int(f[5:-3]))
        doomed = names if self.keep_last <= 0 else names[:-self.keep_last]
        for n in doomed:
            os.remove(os.path.join(self.dirpath, n))

    def on_batch_end(self, trainer, batch, batch_idx, loss):
        step = trainer.global_step
        if step <= 0 or step % self.every_n_steps != 0 or step == self.last_saved_step:
            return
        self.last_saved_step = step
        ckpt = trainer.state_dict()
        atomic_save(ckpt, os.path.join(self.dirpath, f"step-{step:06d}.pt"))
        atomic_save(ckpt, os.path.join(self.dirpath, "last.pt"))
        self._prune()

    def on_validation_end(self, trainer, metrics):
        if self.monitor is None or self.monitor not in metrics:
            return
        value = float(metrics[self.monitor])
        if self.best is None or (value < self.best if self.mode == "min" else value > self.best):
            self.best = value
            atomic_save(trainer.state_dict(), os.path.join(self.dirpath, "best.pt"))

    def state_dict(self) -> dict:
        return {"best": self.best, "last_saved_step": self.last_saved_step}

    def load_state_dict(self, state: dict) -> None:
        self.best, self.last_saved_step = state["best"], state["last_saved_step"]
''',
    'resume_impl': r'''
import copy as _copy


def trainer_state_dict(trainer) -> dict:
    """Everything needed to continue ``trainer`` bit-exactly in a fresh process (plain data + tensors)."""
    sampler = getattr(trainer.train_loader, "sampler", None)
    ckpt = {
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
        "history": list(trainer.history),
        "val_history": list(trainer.val_history),
    }
    import io
    buf = io.BytesIO()
    torch.save(ckpt, buf)  # a detached copy of everything: later training cannot change it
    buf.seek(0)
    return torch.load(buf, weights_only=False)


def trainer_load_state_dict(trainer, ckpt: dict) -> None:
    """Restore a checkpoint made by trainer_state_dict into an already constructed Trainer."""
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
    for cb, st in zip(trainer.callbacks, ckpt.get("callbacks") or []):
        if st is not None and hasattr(cb, "load_state_dict"):
            cb.load_state_dict(st)
    trainer.history = [dict(r) for r in ckpt.get("history", [])]
    trainer.val_history = [dict(r) for r in ckpt.get("val_history", [])]
    restore_rng_state(ckpt["rng"])
    trainer._pending_rng = ckpt["rng"]
''',
}
