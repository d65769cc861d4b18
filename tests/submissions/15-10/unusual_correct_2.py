"""A second set of correct answers written differently from the reference and from unusual_correct.py.

clipping: a Python sum of squared entries, a float factor applied through detach(); sampler: an explicit
iterator object whose __next__ counts, seeds from hash((seed, epoch)); rng: NumPy's dict state
(get_state(legacy=False)) and Python's state as a tensor plus the pending gauss value; callbacks: an early
stopping that compares signed scores, an EMA built on torch._foreach_lerp_; checkpoint: NamedTemporaryFile
plus glob. The Trainer and the checkpoint layout are the reference's. All must pass.
"""
CELLS = {
    "clip_impl": '''def clip_grad_norm(parameters, max_norm: float) -> torch.Tensor:
    with_grad = [p for p in parameters if p.grad is not None]
    if not with_grad:
        return torch.tensor(0.0)
    squares = [p.grad.detach().double().pow(2).sum() for p in with_grad]
    total = torch.stack(squares).sum().sqrt().to(with_grad[0].grad.dtype)
    factor = float(max_norm) / (float(total) + 1e-6)
    if not factor >= 1.0:  # a nan factor scales too, as clip_grad_norm_ does
        for p in with_grad:
            p.grad.detach().mul_(factor)
    return total
''',
    "sampler_impl": '''class _Cursor:
    def __init__(self, owner, order, start):
        self.owner, self.order, self.i = owner, order, start
        owner.pos = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= len(self.order):
            raise StopIteration
        value = self.order[self.i]
        self.i += 1
        self.owner.pos = self.i
        return value


class ResumableRandomSampler(Sampler):
    """Shuffles range(num_samples) with an order fixed by (seed, epoch); can resume mid-epoch."""

    def __init__(self, num_samples: int, seed: int = 0):
        self.num_samples = int(num_samples)
        self.seed = int(seed)
        self.epoch = 0
        self.pos = 0
        self.pending = 0

    def __len__(self) -> int:
        return self.num_samples

    def permutation(self, epoch: int) -> list:
        g = torch.Generator()
        g.manual_seed(hash((self.seed, int(epoch))) & 0x7FFF_FFFF_FFFF)
        return [int(i) for i in torch.randperm(self.num_samples, generator=g)]

    def set_epoch(self, epoch: int) -> None:
        if int(epoch) == self.epoch:
            return
        self.epoch, self.pos, self.pending = int(epoch), 0, 0

    def __iter__(self):
        start, self.pending = self.pending, 0
        return _Cursor(self, self.permutation(self.epoch), start)

    def state_dict(self) -> dict:
        return {"epoch": self.epoch, "pos": self.pending or self.pos}

    def load_state_dict(self, state: dict) -> None:
        self.epoch = int(state["epoch"])
        self.pos = self.pending = int(state["pos"])


def make_loader(dataset, batch_size: int, seed: int = 0) -> DataLoader:
    own = torch.Generator()
    own.manual_seed(10_000 + seed)
    return DataLoader(dataset, batch_size=batch_size, shuffle=False,
                      sampler=ResumableRandomSampler(len(dataset), seed=seed), generator=own)
''',
    "rng_impl": '''def capture_rng_state() -> dict:
    version, internal, gauss_next = random.getstate()
    np_state = np.random.get_state(legacy=False)
    snap = {
        "cpu": torch.get_rng_state().clone(),
        "np": {"key": torch.tensor(np_state["state"]["key"].astype(np.int64)), "pos": int(np_state["state"]["pos"]),
               "has_gauss": int(np_state["has_gauss"]), "gauss": float(np_state["gauss"])},
        "py": {"version": version, "internal": torch.tensor(internal, dtype=torch.int64), "gauss_next": gauss_next},
    }
    if torch.cuda.is_available():
        snap["gpu"] = [s.clone() for s in torch.cuda.get_rng_state_all()]
    return snap


def restore_rng_state(state: dict) -> None:
    torch.set_rng_state(state["cpu"])
    n = state["np"]
    np.random.set_state({"bit_generator": "MT19937",
                         "state": {"key": n["key"].numpy().astype(np.uint32), "pos": n["pos"]},
                         "has_gauss": n["has_gauss"], "gauss": n["gauss"]})
    p = state["py"]
    random.setstate((p["version"], tuple(int(v) for v in p["internal"].tolist()), p["gauss_next"]))
    if "gpu" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["gpu"])
''',
    "callbacks_impl": '''class EarlyStopping(Callback):
    def __init__(self, monitor: str = "val_loss", patience: int = 3, min_delta: float = 0.0, mode: str = "min"):
        self.monitor, self.patience, self.min_delta, self.mode = monitor, patience, min_delta, mode
        self.best = None
        self.wait = 0

    def _score(self, value):
        return -value if self.mode == "max" else value

    def improved(self, value: float) -> bool:
        return self.best is None or self._score(value) < self._score(self.best) - self.min_delta

    def on_validation_end(self, trainer, metrics):
        value = float(metrics[self.monitor])
        if not self.improved(value):
            self.wait += 1
            trainer.should_stop = trainer.should_stop or self.wait >= self.patience
            return
        self.best, self.wait = value, 0

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
        step = trainer.global_step
        if step != self.last_step:
            self.last_step = step
            with torch.no_grad():
                current = [p.detach() for p in trainer.model.parameters()]
                if self.shadow is None:
                    self.shadow = [torch.empty_like(c).copy_(c) for c in current]
                else:
                    torch._foreach_lerp_(self.shadow, current, 1.0 - self.decay)
            self.num_updates += 1

    def copy_to(self, module: nn.Module) -> None:
        if self.shadow is not None:
            with torch.no_grad():
                torch._foreach_copy_(list(module.parameters()), self.shadow)

    def state_dict(self) -> dict:
        return {"decay": self.decay, "num_updates": self.num_updates, "last_step": self.last_step,
                "shadow": None if self.shadow is None else [s.clone() for s in self.shadow]}

    def load_state_dict(self, state: dict) -> None:
        self.decay, self.num_updates, self.last_step = state["decay"], state["num_updates"], state["last_step"]
        self.shadow = None if state["shadow"] is None else [s.clone() for s in state["shadow"]]
''',
    "checkpoint_impl": '''import glob


def atomic_save(obj, path) -> None:
    path = os.path.abspath(os.fspath(path))
    f = tempfile.NamedTemporaryFile("wb", dir=os.path.dirname(path), prefix="~", delete=False)
    try:
        with f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(f.name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.remove(f.name)
        raise


class CheckpointCallback(Callback):
    def __init__(self, dirpath, every_n_steps: int = 1, keep_last: int = 3, monitor: str | None = None,
                 mode: str = "min"):
        self.dirpath, self.every_n_steps, self.keep_last = os.fspath(dirpath), every_n_steps, keep_last
        self.monitor, self.mode = monitor, mode
        self.best = None
        self.last_saved_step = None
        os.makedirs(self.dirpath, exist_ok=True)

    def on_batch_end(self, trainer, batch, batch_idx, loss):
        step = trainer.global_step
        if step < 1 or step % self.every_n_steps or self.last_saved_step == step:
            return
        self.last_saved_step = step
        state = trainer.state_dict()
        for name in (f"step-{step:06d}.pt", "last.pt"):
            atomic_save(state, os.path.join(self.dirpath, name))
        files = glob.glob(os.path.join(glob.escape(self.dirpath), "step-*.pt"))
        numbered = sorted((int(os.path.basename(f)[5:-3]), f) for f in files
                          if os.path.basename(f)[5:-3].isdigit())
        extra = len(numbered) - max(self.keep_last, 0)
        for _, f in numbered[:max(extra, 0)]:
            os.remove(f)

    def on_validation_end(self, trainer, metrics):
        if self.monitor is None or self.monitor not in metrics:
            return
        value = float(metrics[self.monitor])
        if self.best is not None:
            if self.mode == "min" and not value < self.best:
                return
            if self.mode == "max" and not value > self.best:
                return
        self.best = value
        atomic_save(trainer.state_dict(), os.path.join(self.dirpath, "best.pt"))

    def state_dict(self) -> dict:
        return {"best": self.best, "last_saved_step": self.last_saved_step}

    def load_state_dict(self, state: dict) -> None:
        self.best, self.last_saved_step = state["best"], state["last_saved_step"]
''',
}
EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
