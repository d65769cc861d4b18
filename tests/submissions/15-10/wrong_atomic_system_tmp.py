"""Blind batch of #19 (2026-11-26): atomic_save writes its temporary file with tempfile.mkstemp() in the
system temp folder, then os.replace: across file systems the rename fails (or is not atomic). Breaks:
"write to a temporary file in the same folder"."""
EXPECT = {'clipping': 'pass', 'sampler': 'pass', 'rng': 'pass', 'callbacks': 'pass', 'checkpoint': 'fail', 'trainer': 'pass', 'resume': 'pass'}
CELLS = {
    'checkpoint_impl': r'''
def atomic_save(obj, path) -> None:
    """torch.save(obj, path) such that path is never left partially written."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(suffix=".pt")
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
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

    def _prune(self):
        names = sorted(n for n in os.listdir(self.dirpath) if re.fullmatch(r"step-\d+\.pt", n))
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
}
