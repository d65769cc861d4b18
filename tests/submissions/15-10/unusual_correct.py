"""Correct answers written quite differently from the reference, for every task. All must pass.

clipping: one flat vector of all gradients, torch._foreach_mul_; sampler: torch.randperm with a private generator
seeded from NumPy's SeedSequence of (seed, epoch) (round 26: it was NumPy's own PCG64 permutation, which breaks
"call torch.randperm with it" and raises for a negative seed), a different state layout and a make_loader built on batch_sampler=; rng: raw NumPy state (a NumPy array in the
checkpoint); callbacks: torch.lerp-based EMA and a counter-free early stopping; checkpoint: fixed temp name +
os.rename; Trainer: a different loop structure that looks the sampler up through batch_sampler, groups
batches itself and restores the RNGs at load and again when the epoch's iterator exists; resume: a nested checkpoint layout.
"""
CELLS = {
    "clip_impl": '''def clip_grad_norm(parameters, max_norm: float) -> torch.Tensor:
    grads = [p.grad for p in list(parameters) if p.grad is not None]
    if len(grads) == 0:
        return torch.zeros(())
    flat = torch.cat([g.detach().reshape(-1) for g in grads])
    total = flat.pow(2).sum().sqrt()
    factor = float(max_norm) / (float(total) + 1e-6)
    if not factor >= 1.0:  # a nan factor scales too, as clip_grad_norm_ does
        with torch.no_grad():
            torch._foreach_mul_(grads, factor)
    return total
''',
    "sampler_impl": '''class ResumableRandomSampler(Sampler):
    def __init__(self, num_samples, seed=0):
        self.num_samples, self.seed = int(num_samples), int(seed)
        self.epoch = 0
        self.pos = 0
        self._resume_pos = None
        self._state = {"e": 0, "done": 0, "pending": None}

    def __len__(self):
        return self.num_samples

    def permutation(self, epoch):
        # the private generator's seed comes from NumPy's SeedSequence of (seed mod 2**64, epoch): any int seed
        key = int(np.random.SeedSequence([self.seed % 2**64, int(epoch)]).generate_state(1, np.uint64)[0])
        g = torch.Generator().manual_seed(key)
        return torch.randperm(self.num_samples, generator=g).tolist()

    def set_epoch(self, epoch):
        if self._state["e"] != epoch:
            self._state = {"e": int(epoch), "done": 0, "pending": None}

    def __iter__(self):
        st = self._state
        order = self.permutation(st["e"])
        start, st["pending"] = (st["pending"] or 0), None
        st["done"] = start
        while st["done"] < self.num_samples:
            i = order[st["done"]]
            st["done"] += 1
            yield i

    def state_dict(self):
        st = self._state
        return {"e": st["e"], "done": st["pending"] if st["pending"] is not None else st["done"]}

    def load_state_dict(self, state):
        self._state = {"e": state["e"], "done": state["done"], "pending": state["done"]}


def make_loader(dataset, batch_size, seed=0):
    from torch.utils.data import BatchSampler
    bs = BatchSampler(ResumableRandomSampler(len(dataset), seed), batch_size, drop_last=False)
    return DataLoader(dataset, batch_sampler=bs, generator=torch.Generator())
''',
    "rng_impl": '''def capture_rng_state():
    out = {"t": torch.random.get_rng_state().clone(), "np": np.random.get_state(), "py": random.getstate()}
    if torch.cuda.is_available():
        out["cu"] = [s.clone() for s in torch.cuda.get_rng_state_all()]
    return out


def restore_rng_state(state):
    random.setstate(state["py"])
    np.random.set_state(state["np"])
    torch.random.set_rng_state(state["t"])
    if torch.cuda.is_available() and "cu" in state:
        torch.cuda.set_rng_state_all(state["cu"])
''',
    "callbacks_impl": '''class EarlyStopping(Callback):
    def __init__(self, monitor="val_loss", patience=3, min_delta=0.0, mode="min"):
        self.monitor, self.patience, self.min_delta, self.mode = monitor, patience, min_delta, mode
        self.best = None
        self.wait = 0
        self.history = []

    def improved(self, value):
        sign = 1.0 if self.mode == "min" else -1.0
        return self.best is None or sign * (self.best - value) > self.min_delta

    def on_validation_end(self, trainer, metrics):
        v = float(metrics[self.monitor])
        if self.improved(v):
            self.best, self.wait = v, 0
        else:
            self.wait += 1
        trainer.should_stop = trainer.should_stop or self.wait >= self.patience

    def state_dict(self):
        return {"best": self.best, "wait": self.wait}

    def load_state_dict(self, state):
        self.best, self.wait = state["best"], state["wait"]


class EMACallback(Callback):
    def __init__(self, decay=0.99):
        self.decay = decay
        self.shadow = None
        self.num_updates = 0
        self.last_step = None

    def on_fit_start(self, trainer):
        if self.last_step is None:
            self.last_step = trainer.global_step

    def on_batch_end(self, trainer, batch, batch_idx, loss):
        if self.last_step is not None and trainer.global_step <= self.last_step:
            return
        self.last_step = trainer.global_step
        current = [p.detach() for p in trainer.model.parameters()]
        if self.shadow is None:
            self.shadow = [torch.empty_like(c).copy_(c) for c in current]
        else:
            with torch.no_grad():
                for s, c in zip(self.shadow, current):
                    s.copy_(torch.lerp(s, c, 1.0 - self.decay))
        self.num_updates += 1

    def copy_to(self, module):
        with torch.no_grad():
            for p, s in zip(module.parameters(), self.shadow or []):
                p.data.copy_(s)

    def state_dict(self):
        return {"decay": self.decay, "n": self.num_updates, "last": self.last_step,
                "shadow": None if self.shadow is None else [s.clone() for s in self.shadow]}

    def load_state_dict(self, state):
        self.decay, self.num_updates, self.last_step = state["decay"], state["n"], state["last"]
        self.shadow = None if state["shadow"] is None else [s.clone() for s in state["shadow"]]
''',
    "checkpoint_impl": '''import glob


def atomic_save(obj, path):
    tmp = str(path) + ".partial"
    try:
        with open(tmp, "wb") as f:
            torch.save(obj, f)
            os.fsync(f.fileno())
        os.rename(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


class CheckpointCallback(Callback):
    def __init__(self, dirpath, every_n_steps=1, keep_last=3, monitor=None, mode="min"):
        self.dirpath, self.every_n_steps, self.keep_last = str(dirpath), every_n_steps, keep_last
        self.monitor, self.mode = monitor, mode
        self.best = None
        self.last_saved_step = None
        os.makedirs(self.dirpath, exist_ok=True)

    def on_batch_end(self, trainer, batch, batch_idx, loss):
        s = trainer.global_step
        if s and s % self.every_n_steps == 0 and s != self.last_saved_step:
            self.last_saved_step = s
            state = trainer.state_dict()
            for name in (f"step-{s:06d}.pt", "last.pt"):
                atomic_save(state, os.path.join(self.dirpath, name))
            files = sorted(glob.glob(os.path.join(self.dirpath, "step-*.pt")),
                           key=lambda p: int(os.path.basename(p)[5:-3]), reverse=True)
            for old in files[self.keep_last:]:
                os.remove(old)

    def on_validation_end(self, trainer, metrics):
        if not self.monitor or self.monitor not in metrics:
            return
        v = float(metrics[self.monitor])
        if self.best is None or (self.mode == "min" and v < self.best) or (self.mode == "max" and v > self.best):
            self.best = v
            atomic_save(trainer.state_dict(), os.path.join(self.dirpath, "best.pt"))

    def state_dict(self):
        return {"best": self.best, "last_saved_step": self.last_saved_step}

    def load_state_dict(self, state):
        self.best, self.last_saved_step = state["best"], state["last_saved_step"]
''',
    "trainer_impl": '''def _find_sampler(loader):
    for s in (getattr(loader, "sampler", None), getattr(getattr(loader, "batch_sampler", None), "sampler", None)):
        if hasattr(s, "state_dict"):
            return s
    return None


def _move(obj, device):
    if torch.is_tensor(obj):
        return obj.to(device)
    if isinstance(obj, dict):
        return {k: _move(v, device) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(_move(v, device) for v in obj) if isinstance(obj, list) else tuple(_move(v, device) for v in obj)
    return obj


class Trainer:
    def __init__(self, model, optimizer, train_loader, loss_fn, *, scheduler=None, scaler=None,
                 val_loader=None, callbacks=(), max_epochs=1, max_steps=None, accum_steps=1, max_grad_norm=None,
                 precision="32", device=None, progress=False):
        self.device = torch.device(device) if device is not None else next(model.parameters()).device
        self.model = model.to(self.device)
        self.optimizer, self.train_loader, self.loss_fn = optimizer, train_loader, loss_fn
        self.scheduler, self.val_loader, self.callbacks = scheduler, val_loader, list(callbacks)
        self.max_epochs, self.max_steps, self.accum_steps = max_epochs, max_steps, accum_steps
        self.max_grad_norm, self.precision, self.progress = max_grad_norm, precision, progress
        if scaler is None and precision == "fp16":
            scaler = torch.amp.GradScaler(self.device.type, enabled=self.device.type == "cuda")
        self.scaler = scaler
        self.global_step = self.epoch = self.batch_in_epoch = 0
        self.should_stop = False
        self.last_grad_norm = float("nan")
        self.history, self.val_history, self.metrics = [], [], {}
        self._pending_rng = None
        self._pending = []

    def to_device(self, batch):
        return _move(batch, self.device)

    def _fire(self, name, *args):
        for cb in self.callbacks:
            if hasattr(cb, name):
                getattr(cb, name)(self, *args)

    def fit(self, ckpt_path=None):
        if ckpt_path:
            self.load_checkpoint(ckpt_path)
        self.model.train()
        for p in self.model.parameters():
            p.grad = None
        self._fire("on_fit_start")
        dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(self.precision)
        amp = (lambda: torch.autocast(self.device.type, dtype=dtype)) if dtype else contextlib.nullcontext
        while not self.should_stop and self.epoch < self.max_epochs:
            if self.max_steps is not None and self.global_step >= self.max_steps:
                break
            sampler = _find_sampler(self.train_loader)
            if sampler is not None and hasattr(sampler, "set_epoch"):
                sampler.set_epoch(self.epoch)
            if not self.batch_in_epoch:
                self._fire("on_epoch_start")
            total = len(self.train_loader)
            loader_it = iter(self.train_loader)
            if self._pending_rng is not None:
                restore_rng_state(self._pending_rng)
                self._pending_rng = None
            interrupted = False
            for batch in tqdm(loader_it, total=total, initial=self.batch_in_epoch, disable=not self.progress):
                i = self.batch_in_epoch
                batch = _move(batch, self.device)
                self._fire("on_batch_start", batch, i)
                with amp():
                    loss = self.loss_fn(self.model, batch)
                out = torch.div(loss, self.accum_steps)
                (self.scaler.scale(out) if self.scaler is not None else out).backward()
                self._fire("on_after_backward")
                self._pending.append(loss.item())
                self.batch_in_epoch = i + 1
                if (i + 1) % self.accum_steps == 0 or i + 1 >= total:
                    self._step()
                self._fire("on_batch_end", batch, i, self._pending[-1] if self._pending else loss.item())
                if self.max_steps is not None and self.global_step >= self.max_steps:
                    interrupted = True
                    break
            if interrupted:
                break
            if self.val_loader is not None:
                self.validate()
            self._fire("on_epoch_end")
            self.epoch, self.batch_in_epoch = self.epoch + 1, 0
        self._fire("on_fit_end")
        return self

    def validate(self):
        dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(self.precision)
        self.model.eval()
        with torch.no_grad(), (torch.autocast(self.device.type, dtype=dtype) if dtype else contextlib.nullcontext()):
            vals = [self.loss_fn(self.model, _move(b, self.device)).item() for b in self.val_loader]
        self.model.train()
        self.metrics = {"val_loss": float(np.mean(vals))}
        self.val_history.append({"step": self.global_step, "epoch": self.epoch, **self.metrics})
        self._fire("on_validation_end", self.metrics)
        return self.metrics

    def _step(self):
        opt = self.optimizer
        if self.scaler is not None:
            self.scaler.unscale_(opt)
        ps = [p for g in opt.param_groups for p in g["params"] if p.grad is not None]
        flat = torch.cat([p.grad.detach().reshape(-1).double() for p in ps]) if ps else torch.zeros(1)
        self.last_grad_norm = float(flat.norm())
        if self.max_grad_norm is not None:
            clip_grad_norm(ps, self.max_grad_norm)
        self._fire("on_before_optimizer_step")
        row = {"lr": float(opt.param_groups[0]["lr"]), "grad_norm": self.last_grad_norm, "epoch": self.epoch,
               "loss": float(np.mean(self._pending))}
        if self.scaler is not None:
            self.scaler.step(opt)
            self.scaler.update()
        else:
            opt.step()
        for p in ps:
            p.grad = None
        if self.scheduler is not None:
            self.scheduler.step()
        self.global_step += 1
        row["step"] = self.global_step
        self.history.append(row)
        self._pending = []

    def state_dict(self):
        ckpt = trainer_state_dict(self)
        self._fire("on_save_checkpoint", ckpt)
        return ckpt

    def load_state_dict(self, ckpt):
        trainer_load_state_dict(self, ckpt)
        self._fire("on_load_checkpoint", ckpt)

    def save_checkpoint(self, path):
        atomic_save(self.state_dict(), path)

    def load_checkpoint(self, path):
        self.load_state_dict(torch.load(path, weights_only=False))
''',
    "resume_impl": '''def trainer_state_dict(trainer):
    s = _find_sampler(trainer.train_loader)
    return {
        "model": trainer.model.state_dict(), "optimizer": trainer.optimizer.state_dict(),
        "scheduler": trainer.scheduler and trainer.scheduler.state_dict(),
        "scaler": trainer.scaler.state_dict() if trainer.scaler is not None else None,
        "global_step": trainer.global_step, "epoch": trainer.epoch, "batch_in_epoch": trainer.batch_in_epoch,
        "rng": capture_rng_state(), "sampler": s.state_dict() if s is not None else None,
        "callbacks": [getattr(cb, "state_dict", lambda: None)() for cb in trainer.callbacks],
        "history": list(trainer.history),
        "extra": {"loop": (trainer.epoch, trainer.batch_in_epoch, trainer.global_step)},
    }


def trainer_load_state_dict(trainer, ckpt):
    trainer.epoch, trainer.batch_in_epoch, trainer.global_step = ckpt["extra"]["loop"]
    trainer.optimizer.load_state_dict(ckpt["optimizer"])
    trainer.model.load_state_dict(ckpt["model"])
    if ckpt["scheduler"] is not None:
        trainer.scheduler.load_state_dict(ckpt["scheduler"])
    if ckpt["scaler"]:
        trainer.scaler.load_state_dict(ckpt["scaler"])
    s = _find_sampler(trainer.train_loader)
    if s is not None and ckpt["sampler"] is not None:
        s.load_state_dict(ckpt["sampler"])
    for cb, st in zip(trainer.callbacks, ckpt["callbacks"]):
        if st is not None:
            cb.load_state_dict(st)
    trainer.history = list(ckpt["history"])
    restore_rng_state(ckpt["rng"])       # restored now, as the text asks (issue 39: "restore ... and")
    trainer._pending_rng = ckpt["rng"]   # and again once the epoch's iterator exists
''',
}
EXPECT = {t: "pass" for t in ["clipping", "sampler", "rng", "callbacks", "checkpoint", "trainer", "resume"]}
