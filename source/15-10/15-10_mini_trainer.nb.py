# %% [markdown]
# # 15-10 · A mini training framework, with exact resumption
#
# Every library that "just trains your model" (Lightning, Fabric, Accelerate, Keras' `fit`) is, under the
# hood, the loop you have written many times: fetch a batch, forward, loss, backward, step. What those
# libraries add is *bookkeeping*: where tensors live, how gradients are accumulated, clipped and scaled,
# what gets logged, when other code is allowed to run, and above all what must be written to disk so that
# a run killed at 3 a.m. can continue as if nothing happened.
#
# In this capstone you write that bookkeeping yourself, in about 300 lines, and you hold it to the
# strictest standard there is: **a run interrupted at any step (mid-epoch included) and resumed in a fresh
# process must end with parameters that are bit-for-bit identical to a run that was never interrupted.**
# "Close" is not enough: if anything is forgotten (the scheduler, one of the random generators, the data
# order, the loss scaler), the two runs drift apart and `torch.equal` says so.
#
# **You will build**
# 1. `clip_grad_norm`: global-norm gradient clipping (the one Trainer uses).
# 2. `ResumableRandomSampler` and `make_loader`: a shuffling sampler that can say where it is in an epoch.
# 3. `capture_rng_state` / `restore_rng_state`: snapshots of every random generator a run touches.
# 4. `EarlyStopping` and `EMACallback`: two callbacks that plug into the lifecycle.
# 5. `atomic_save` and `CheckpointCallback`: checkpoints that are never half-written; keep the last k and the best.
# 6. `Trainer`: the loop itself, with callbacks, devices, accumulation, clipping, mixed precision and logging.
# 7. `trainer_state_dict` / `trainer_load_state_dict`: everything a checkpoint needs for exact resumption.
#
# At the end we put the pieces together on FashionMNIST, kill a training process in the middle of an
# epoch, resume it in another process, and compare the result with an uninterrupted run. Then we look at
# what Lightning and Fabric do for you, point by point.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now. When you
# submit, hidden checks test the same code much harder: they compare with PyTorch's own implementations,
# rebuild your whole training setup from scratch several times, interrupt it at different steps and
# demand bit-identical results. Heavy demos only run when you run the notebook yourself. Keep the `def` and
# `class` lines of the skeletons as they are (the parameters' names, their order and their defaults): a hidden
# check compares them, and a parameter you add must come after them, with a default.
#
# **Validate runs only the visible checks.** "Success!" means your code passes the examples in the
# test cells, not that it earns full marks: grading runs many more hidden checks on the same functions.

# %%
# Setup: course helpers and device. Runs on CPU or GPU (the resumption demo itself runs on CPU).
import contextlib
import math
import os
import random
import re
import tempfile
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Sampler
from tqdm.auto import tqdm

from course.student.checks import expect, expect_close, expect_equal
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)  # assigned: the cell shows no Generator object

# %% [markdown]
# ## 0. The lifecycle we are going to implement
#
# A `Trainer` owns the loop; everything else plugs in through **callbacks**: objects whose methods the
# Trainer calls at fixed moments. This is the contract (the order matters; the hidden checks record it):
#
# ```
# on_fit_start(trainer)
# for each epoch:
#     on_epoch_start(trainer)
#     for each batch (batch_idx counts from 0 inside the epoch):
#         on_batch_start(trainer, batch, batch_idx)
#         forward + loss, backward of loss / accum_steps
#         on_after_backward(trainer)
#         if this batch completes an accumulation group (or is the last batch of the epoch):
#             unscale (GradScaler), measure the gradient norm, clip
#             on_before_optimizer_step(trainer)
#             optimizer step, scaler update, zero_grad, scheduler step, global_step += 1, log one row
#         on_batch_end(trainer, batch, batch_idx, loss)        # loss: this batch's loss as a float
#     if there is a validation loader: validate, then on_validation_end(trainer, metrics)
#     on_epoch_end(trainer)
#     stop if trainer.should_stop
# on_fit_end(trainer)
#
# trainer.state_dict()       -> ... then on_save_checkpoint(trainer, checkpoint)
# trainer.load_state_dict()  -> ... then on_load_checkpoint(trainer, checkpoint)
# ```
#
# A few more rules. `max_steps` stops the run right after the optimizer step that reaches it; if that
# happens inside an epoch, the epoch is left *unfinished* (no validation, no `on_epoch_end`): a resumed
# run finishes it later. A run that has already reached `max_steps` when `fit` starts (`max_steps=0`, or
# resumed from its last step) takes no step at all. `should_stop` is read only where the lifecycle shows
# it, after `on_epoch_end`: a callback that sets it in the middle of an epoch lets that epoch finish. And
# the scheduler is stepped once per optimizer step (a per-step schedule).
#
# The base class below does nothing in every hook; a concrete callback overrides the ones it needs.

# %%
class Callback:
    """Base class: every hook of the Trainer's lifecycle, doing nothing."""

    def on_fit_start(self, trainer): pass
    def on_fit_end(self, trainer): pass
    def on_epoch_start(self, trainer): pass
    def on_epoch_end(self, trainer): pass
    def on_batch_start(self, trainer, batch, batch_idx): pass
    def on_batch_end(self, trainer, batch, batch_idx, loss): pass
    def on_after_backward(self, trainer): pass
    def on_before_optimizer_step(self, trainer): pass
    def on_validation_end(self, trainer, metrics): pass
    def on_save_checkpoint(self, trainer, checkpoint): pass
    def on_load_checkpoint(self, trainer, checkpoint): pass


class PrintEvents(Callback):
    """A tiny example: print the hooks as they fire (used in a demo further down)."""

    def on_fit_start(self, trainer): print("fit start")
    def on_epoch_start(self, trainer): print(f"  epoch {trainer.epoch} start")
    def on_before_optimizer_step(self, trainer):
        print(f"    step {trainer.global_step + 1}: grad norm {trainer.last_grad_norm:.3f}")
    def on_epoch_end(self, trainer): print(f"  epoch {trainer.epoch} end")
    def on_fit_end(self, trainer): print("fit end")

# %% [markdown]
# ## 1. Gradient clipping by the global norm
#
# Clipping rescales *all* gradients together so that their combined L2 norm is at most `max_norm`:
#
# $$ \text{total} = \Big\|\big(\|g_1\|_2, \|g_2\|_2, \dots\big)\Big\|_2, \qquad
#    g_i \leftarrow g_i \cdot \min\Big(1, \frac{\text{max\_norm}}{\text{total} + 10^{-6}}\Big). $$
#
# Details that trip people up (and that the hidden checks look at):
# * it is one norm over **all** parameters, not one per tensor (per-tensor clipping changes the gradient's
#   direction);
# * gradients are never scaled *up* when the norm is already small;
# * parameters whose `.grad` is `None` (frozen, or unused this step) are skipped;
# * the function returns the norm **before** clipping (that is what you want to log);
# * the rescaling happens in place, without autograd recording it.
#
# `torch.nn.utils.clip_grad_norm_` is the reference; write your own without calling it.

# %% [solution] id=clip_impl
def clip_grad_norm(parameters, max_norm: float) -> torch.Tensor:
    """Clip the gradients of ``parameters`` in place to a global L2 norm of at most ``max_norm``.

    parameters: an iterable of tensors (some may have ``.grad is None``; skip those).
    Returns the total norm before clipping as a 0-dim tensor (0.0 if no parameter has a gradient).
    """
    ### BEGIN SOLUTION
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    with torch.no_grad():
        norms = torch.stack([torch.linalg.vector_norm(g.detach(), 2).to(grads[0].device) for g in grads])
        total = torch.linalg.vector_norm(norms, 2)
        coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coef.to(device=g.device, dtype=g.dtype))
    return total
    ### END SOLUTION

# %% [tests] id=clip_tests points=2
_p = [torch.zeros(3, requires_grad=True), torch.zeros(4, requires_grad=True), torch.zeros(2, requires_grad=True)]
_p[0].grad = torch.tensor([3.0, 0.0, 0.0]); _p[1].grad = torch.tensor([0.0, 4.0, 0.0, 0.0])
_n = clip_grad_norm(_p, 1.0)
expect_close(torch.tensor(float(_n)), torch.tensor(5.0), "the returned norm (the norm BEFORE clipping)", atol=1e-5)
expect_close(torch.tensor(float(_p[0].grad.norm() ** 2 + _p[1].grad.norm() ** 2) ** 0.5), torch.tensor(1.0),
             "the total gradient norm after clipping to 1.0", atol=1e-4)
expect(_p[2].grad is None, "a parameter without a gradient keeps .grad None")
_p[0].grad = torch.tensor([0.3, 0.0, 0.0])
clip_grad_norm(_p[:1], 10.0)
expect_close(_p[0].grad, torch.tensor([0.3, 0.0, 0.0]), "a gradient below max_norm (never scaled up)")
### BEGIN HIDDEN TESTS
run_hidden("15-10", "clipping", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. A sampler that knows where it is
#
# To resume *mid-epoch* we must continue with exactly the batches the interrupted run had not yet seen.
# `torch.utils.data.RandomSampler` cannot help: it draws its permutation from the global torch generator
# when the epoch starts and keeps no record of how far it got.
#
# `ResumableRandomSampler` fixes both problems:
# * the permutation of epoch `e` is a pure function of `(seed, epoch)`: build a private
#   `torch.Generator`, seed it from those two numbers, and call `torch.randperm` with it. Same seed and
#   epoch, same order, in any process; different epochs give different orders;
# * it counts its position in the current epoch's permutation (`pos`): the indices handed out, plus the
#   position a resumed pass started from, so that a second interruption of the same epoch resumes right;
# * `state_dict()` returns plain data (`{"epoch": ..., "pos": ..., ...}`), a new dict at each call (a snapshot that
#   later passes do not change); `load_state_dict(sd)` makes the
#   **next** pass start at `pos` in that epoch's permutation (only the next one: the pass after that
#   starts at 0 again);
# * `set_epoch(e)` (called by the Trainer at the start of every epoch, as with `DistributedSampler`)
#   selects the epoch; if `e` is the epoch it already has, it changes nothing (so a pending resume
#   position survives).
#
# Why does counting inside the sampler work? With `num_workers=0` a `DataLoader` asks its sampler for
# indices lazily, one batch at a time, so after the loop has received `b` batches the sampler has yielded
# exactly `b * batch_size` indices. (With worker processes the loader prefetches ahead, and the position
# must be tracked by the loop instead, which is what `torchdata`'s `StatefulDataLoader` does.)
#
# `make_loader` builds the loader the Trainer will use. One trap: **creating a `DataLoader` iterator draws
# a random number from the global torch generator** (a base seed for worker processes), even with
# `num_workers=0`. Run the cell below to see it. Give the loader its own `generator=` so that starting an
# epoch does not disturb the global stream your model's dropout uses.

# %%
torch.manual_seed(0); _a = torch.rand(1)
torch.manual_seed(0); _ = iter(DataLoader(list(range(8)))); _b = torch.rand(1)
torch.manual_seed(0); _ = iter(DataLoader(list(range(8)), generator=torch.Generator())); _c = torch.rand(1)
print(f"no iterator: {_a.item():.4f}   after iter(loader): {_b.item():.4f}   "
      f"after iter(loader with its own generator): {_c.item():.4f}")

# %% [solution] id=sampler_impl
class ResumableRandomSampler(Sampler):
    """Shuffles range(num_samples) with an order fixed by (seed, epoch); can resume mid-epoch."""

    def __init__(self, num_samples: int, seed: int = 0):
        self.num_samples = int(num_samples)
        self.seed = int(seed)
        self.epoch = 0
        self.pos = 0               # indices handed out in the current pass
        self._resume_pos = None    # where the next pass starts, after load_state_dict (None: at 0)

    def __len__(self) -> int:
        return self.num_samples

    def permutation(self, epoch: int) -> list:
        """The order of epoch ``epoch`` as a list of ints (a pure function of seed and epoch)."""
        ### BEGIN SOLUTION
        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))
        return torch.randperm(self.num_samples, generator=g).tolist()
        ### END SOLUTION

    def set_epoch(self, epoch: int) -> None:
        ### BEGIN SOLUTION
        if int(epoch) != self.epoch:
            self.epoch = int(epoch)
            self.pos = 0
            self._resume_pos = None
        ### END SOLUTION

    def __iter__(self):
        ### BEGIN SOLUTION
        order = self.permutation(self.epoch)
        start = self._resume_pos if self._resume_pos is not None else 0
        self._resume_pos = None
        self.pos = start
        for i in range(start, self.num_samples):
            self.pos = i + 1  # counted when handed out: code after `yield` runs only on the next request
            yield order[i]
        ### END SOLUTION

    def state_dict(self) -> dict:
        ### BEGIN SOLUTION
        pos = self._resume_pos if self._resume_pos is not None else self.pos
        return {"epoch": self.epoch, "pos": pos, "seed": self.seed, "num_samples": self.num_samples}
        ### END SOLUTION

    def load_state_dict(self, state: dict) -> None:
        ### BEGIN SOLUTION
        self.epoch = int(state["epoch"])
        self.pos = int(state["pos"])
        self._resume_pos = int(state["pos"])
        ### END SOLUTION


def make_loader(dataset, batch_size: int, seed: int = 0) -> DataLoader:
    """A single-process DataLoader over ``dataset`` with a ResumableRandomSampler(len(dataset), seed).

    Give it its own torch.Generator, so that creating an iterator leaves the global generator alone.
    """
    ### BEGIN SOLUTION
    return DataLoader(dataset, batch_size=batch_size, num_workers=0,
                      sampler=ResumableRandomSampler(len(dataset), seed),
                      generator=torch.Generator().manual_seed(seed))
    ### END SOLUTION

# %% [tests] id=sampler_tests points=3
_s = ResumableRandomSampler(10, seed=3)
_e0 = list(_s)
expect_equal(sorted(_e0), list(range(10)), "the indices of epoch 0, sorted (a permutation of range(10))")
_s.set_epoch(1)
_e1 = list(_s)
expect_equal(sorted(_e1), list(range(10)), "the indices of epoch 1, sorted")
expect(_e1 != _e0, "epoch 1 has another order than epoch 0")
_s.set_epoch(0)
_it = iter(_s); _first = [next(_it) for _ in range(4)]
_t = ResumableRandomSampler(10, seed=3); _t.load_state_dict(_s.state_dict())
expect_equal(_first + list(_t), _e0, "4 indices, then a sampler resumed from state_dict() (it must continue "
             "where the saved one stopped)")
expect([int(i) for b in make_loader(list(range(7)), 3, seed=1) for i in b] != [], "make_loader yields batches")
### BEGIN HIDDEN TESTS
run_hidden("15-10", "sampler", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. Every random generator the run touches
#
# A training step can consume random numbers from four places: torch's CPU generator (dropout, random
# augmentation, `randperm`), one generator per CUDA device, NumPy's global generator and Python's
# `random` module (both popular in data augmentation code). Resuming bit-exactly means putting all four
# back exactly where they were.
#
# * torch: `torch.get_rng_state()` / `torch.set_rng_state(t)` (a `uint8` tensor);
# * CUDA: `torch.cuda.get_rng_state_all()` / `torch.cuda.set_rng_state_all(list)` (only if CUDA is available,
#   when capturing and when restoring: a snapshot taken without CUDA has no CUDA state, and restoring it where
#   CUDA is available, as for a CPU run resumed on a GPU node, still puts the other three back);
# * NumPy: `np.random.get_state()` / `np.random.set_state(s)` (a tuple holding a NumPy array);
# * Python: `random.getstate()` / `random.setstate(s)` (a tuple of ints).
#
# A design tip: since PyTorch 2.6, `torch.load` defaults to `weights_only=True`, which refuses NumPy
# arrays. If you store NumPy's key array as a torch tensor (and convert it back on restore), your whole
# checkpoint stays plain data and loads safely with the default. (Not required; the checks round-trip
# your state with `torch.save` / `torch.load(..., weights_only=False)`.)

# %% [solution] id=rng_impl
def capture_rng_state() -> dict:
    """A snapshot of the torch, CUDA (if available), NumPy and Python random generators."""
    ### BEGIN SOLUTION
    kind, keys, pos, has_gauss, cached = np.random.get_state()
    state = {
        "torch": torch.get_rng_state(),
        "numpy": (kind, torch.from_numpy(keys.astype(np.int64)), int(pos), int(has_gauss), float(cached)),
        "python": random.getstate(),
    }
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state
    ### END SOLUTION


def restore_rng_state(state: dict) -> None:
    """Put every generator back to the snapshot taken by capture_rng_state."""
    ### BEGIN SOLUTION
    torch.set_rng_state(state["torch"])
    kind, keys, pos, has_gauss, cached = state["numpy"]
    keys = keys.numpy() if isinstance(keys, torch.Tensor) else np.asarray(keys)
    np.random.set_state((kind, keys.astype(np.uint32), int(pos), int(has_gauss), float(cached)))
    random.setstate(state["python"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])
    ### END SOLUTION

# %% [tests] id=rng_tests points=2
_st = capture_rng_state()
_draw = lambda: (torch.rand(3), np.random.rand(3), random.random())
_x = _draw()
torch.manual_seed(123); np.random.seed(123); random.seed(123)
restore_rng_state(_st)
_y = _draw()
expect_equal(_y[0], _x[0], "torch.rand after restore_rng_state")
expect(np.array_equal(_x[1], _y[1]), "np.random.rand after restore_rng_state repeats the same numbers")
expect_equal(_y[2], _x[2], "random.random() after restore_rng_state")
### BEGIN HIDDEN TESTS
run_hidden("15-10", "rng", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Two callbacks: early stopping and a weight EMA
#
# **EarlyStopping** watches one validation metric. After each validation it compares the new value with
# the best so far: an *improvement* means strictly better than `best - min_delta` (mode `"min"`) or
# `best + min_delta` (mode `"max"`); the first value always counts as one. `improved(value)` only answers that
# question (it changes no state); `on_validation_end` records the new best. Each validation without
# improvement adds one to a counter (reset to 0 on improvement); when the counter reaches `patience`, the
# callback sets `trainer.should_stop = True`, and the Trainer ends the run after that epoch. Its state
# (best value, counter) belongs in checkpoints, so give it `state_dict` / `load_state_dict`.
#
# **EMACallback** keeps an exponential moving average of the weights, which often evaluates better than
# the raw weights at the end of training. It updates **once per optimizer step**, in `on_batch_end`, and
# only when `trainer.global_step` has advanced since its last update (with gradient accumulation several
# batches pass between steps). The first update copies the weights, on their device; every later one
# blends
#
# $$ \text{ema} \leftarrow \text{decay}\cdot\text{ema} + (1-\text{decay})\cdot w, $$
#
# the same rule as `torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay))`.
# Keep the shadow copies detached and outside autograd (no graph may grow through them), count the updates
# in `num_updates`, and give the callback `copy_to(module)`, which copies the averaged weights into a
# module's parameters (before the first update it leaves the module unchanged). Only the parameters
# (`module.parameters()`, in order) are averaged here.

# %% [solution] id=callbacks_impl
class EarlyStopping(Callback):
    def __init__(self, monitor: str = "val_loss", patience: int = 3, min_delta: float = 0.0, mode: str = "min"):
        self.monitor, self.patience, self.min_delta, self.mode = monitor, patience, min_delta, mode
        self.best = None
        self.wait = 0

    def improved(self, value: float) -> bool:
        ### BEGIN SOLUTION
        if self.best is None:
            return True
        if self.mode == "min":
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta
        ### END SOLUTION

    def on_validation_end(self, trainer, metrics):
        ### BEGIN SOLUTION
        value = float(metrics[self.monitor])
        if self.improved(value):
            self.best = value
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                trainer.should_stop = True
        ### END SOLUTION

    def state_dict(self) -> dict:
        return {"best": self.best, "wait": self.wait}

    def load_state_dict(self, state: dict) -> None:
        self.best, self.wait = state["best"], state["wait"]


class EMACallback(Callback):
    def __init__(self, decay: float = 0.99):
        self.decay = decay
        self.shadow = None       # list of tensors, one per parameter, or None before the first update
        self.num_updates = 0
        self.last_step = None    # trainer.global_step at the last update

    def on_fit_start(self, trainer):
        if self.last_step is None:
            self.last_step = trainer.global_step

    def on_batch_end(self, trainer, batch, batch_idx, loss):
        ### BEGIN SOLUTION
        if trainer.global_step == self.last_step:
            return  # no optimizer step on this batch
        self.last_step = trainer.global_step
        with torch.no_grad():
            weights = [p.detach() for p in trainer.model.parameters()]
            if self.shadow is None:
                self.shadow = [w.clone() for w in weights]
            else:
                for s, w in zip(self.shadow, weights):
                    s.mul_(self.decay).add_(w, alpha=1.0 - self.decay)
        self.num_updates += 1
        ### END SOLUTION

    def copy_to(self, module: nn.Module) -> None:
        """Write the averaged weights into module's parameters (in place)."""
        ### BEGIN SOLUTION
        if self.shadow is None:
            return
        with torch.no_grad():
            for p, s in zip(module.parameters(), self.shadow):
                p.copy_(s)
        ### END SOLUTION

    def state_dict(self) -> dict:
        return {"decay": self.decay, "num_updates": self.num_updates, "last_step": self.last_step,
                "shadow": None if self.shadow is None else [s.clone() for s in self.shadow]}

    def load_state_dict(self, state: dict) -> None:
        self.decay, self.num_updates, self.last_step = state["decay"], state["num_updates"], state["last_step"]
        self.shadow = None if state["shadow"] is None else [s.clone() for s in state["shadow"]]

# %% [tests] id=callbacks_tests points=3
class _FakeTrainer:
    should_stop = False
_es, _ft = EarlyStopping(patience=2), _FakeTrainer()
for _v in [1.0, 0.8, 0.9, 0.85]:
    _es.on_validation_end(_ft, {"val_loss": _v})
expect(_ft.should_stop, "EarlyStopping(patience=2) stops after two validations without improvement")
expect_equal(_es.best, 0.8, "EarlyStopping.best after val_loss 1.0, 0.8, 0.9, 0.85")
_ft.model, _ft.global_step = nn.Linear(2, 1), 0
_ema = EMACallback(decay=0.5); _ema.on_fit_start(_ft)
with torch.no_grad():
    _ft.model.weight.fill_(1.0); _ft.global_step = 1; _ema.on_batch_end(_ft, None, 0, 0.0)
    _ft.model.weight.fill_(3.0); _ft.global_step = 2; _ema.on_batch_end(_ft, None, 1, 0.0)
    _ema.on_batch_end(_ft, None, 2, 0.0)  # no new step: no update
_m = nn.Linear(2, 1); _ema.copy_to(_m)
expect_close(_m.weight, torch.full((1, 2), 2.0), "the EMA weights copied to a model (two steps with decay 0.5; "
             "a batch without a new step does not update)")
### BEGIN HIDDEN TESTS
run_hidden("15-10", "callbacks", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Checkpoints that are never half-written
#
# `torch.save(obj, "last.pt")` opens `last.pt` for writing, which **truncates it first**, and then writes
# for as long as serialization takes. A crash, an out-of-memory kill or a full disk in between leaves a
# corrupt `last.pt`, and the previous good checkpoint is gone too. The standard fix is the
# write-then-rename dance:
#
# 1. write to a temporary file *in the same folder* (so the rename below never crosses file systems);
# 2. flush it, `os.fsync` it and close it, so the bytes are really on disk and no file stays open (whether the save
#    succeeds or fails);
# 3. `os.replace(tmp, path)`: on POSIX a rename within one file system is atomic, so anyone opening
#    `path` sees either the complete old file or the complete new one, never a mixture;
# 4. if anything fails (any exception, a `KeyboardInterrupt` from Ctrl-C included), delete the temporary file
#    and re-raise that same exception.
#
# `atomic_save(obj, path)` takes what `torch.save` takes for `path`: a `str` or any `os.PathLike` (a
# `pathlib.Path`).
#
# `CheckpointCallback(dirpath, every_n_steps, keep_last, monitor, mode)` then manages a folder:
# * at `on_batch_end`, when `trainer.global_step` is a positive multiple of `every_n_steps` and has not
#   been saved yet (accumulation: several batches share one step), write
#   `step-{global_step:06d}.pt` and `last.pt`, then delete the oldest `step-*.pt` files so that only the
#   `keep_last` newest remain (`keep_last=0` keeps none; find them by listing the folder, so this also
#   works after a resume);
# * at `on_validation_end`, if `monitor` is set and is a key of `metrics` (otherwise do nothing) and
#   `metrics[monitor]` is the best value so far (strictly better; `mode` "min" or "max"), write `best.pt`;
# * the checkpoint content is `trainer.state_dict()` (section 7); write everything with `atomic_save`.
# * a checkpoint's content already counts that checkpoint: record the step as saved (or the value as the best)
#   before calling `trainer.state_dict()`, so that a run resumed from that file neither writes the same step
#   again nor takes a worse value for a new best.

# %% [solution] id=checkpoint_impl
def atomic_save(obj, path) -> None:
    """torch.save(obj, path) such that path is never left partially written."""
    ### BEGIN SOLUTION
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
            os.unlink(tmp)
        raise
    ### END SOLUTION


class CheckpointCallback(Callback):
    def __init__(self, dirpath, every_n_steps: int = 1, keep_last: int = 3, monitor: str | None = None,
                 mode: str = "min"):
        self.dirpath, self.every_n_steps, self.keep_last = os.fspath(dirpath), every_n_steps, keep_last
        self.monitor, self.mode = monitor, mode
        self.best = None
        self.last_saved_step = None
        os.makedirs(self.dirpath, exist_ok=True)

    def on_batch_end(self, trainer, batch, batch_idx, loss):
        ### BEGIN SOLUTION
        step = trainer.global_step
        if step <= 0 or step % self.every_n_steps != 0 or step == self.last_saved_step:
            return
        self.last_saved_step = step
        ckpt = trainer.state_dict()
        atomic_save(ckpt, os.path.join(self.dirpath, f"step-{step:06d}.pt"))
        atomic_save(ckpt, os.path.join(self.dirpath, "last.pt"))
        found = []
        for name in os.listdir(self.dirpath):
            m = re.fullmatch(r"step-(\d+)\.pt", name)
            if m:
                found.append((int(m.group(1)), name))
        for _, name in sorted(found)[:-self.keep_last] if self.keep_last > 0 else sorted(found):
            os.remove(os.path.join(self.dirpath, name))
        ### END SOLUTION

    def on_validation_end(self, trainer, metrics):
        ### BEGIN SOLUTION
        if self.monitor is None or self.monitor not in metrics:
            return
        value = float(metrics[self.monitor])
        better = (self.best is None or (value < self.best if self.mode == "min" else value > self.best))
        if better:
            self.best = value
            atomic_save(trainer.state_dict(), os.path.join(self.dirpath, "best.pt"))
        ### END SOLUTION

    def state_dict(self) -> dict:
        return {"best": self.best, "last_saved_step": self.last_saved_step}

    def load_state_dict(self, state: dict) -> None:
        self.best, self.last_saved_step = state["best"], state["last_saved_step"]

# %% [tests] id=checkpoint_tests points=3
with tempfile.TemporaryDirectory() as _d:
    _path = os.path.join(_d, "x.pt")
    atomic_save({"a": torch.arange(3)}, _path)
    expect_equal(torch.load(_path)["a"], torch.arange(3), "what atomic_save wrote, read back")
    expect_equal(os.listdir(_d), ["x.pt"], "the folder after a successful save (no temporary files left)")

    class _T:
        global_step = 0
        def state_dict(self):
            return {"global_step": self.global_step}
    _t, _cb = _T(), CheckpointCallback(_d, every_n_steps=1, keep_last=2, monitor="val_loss")
    for _s in range(1, 5):
        _t.global_step = _s
        _cb.on_batch_end(_t, None, _s - 1, 0.0)
    _cb.on_validation_end(_t, {"val_loss": 0.5})
    expect_equal(sorted(n for n in os.listdir(_d) if n.startswith("step-")), ["step-000003.pt", "step-000004.pt"],
                 "the step checkpoints kept with keep_last=2 after steps 1-4")
    expect_equal(torch.load(os.path.join(_d, "last.pt"))["global_step"], 4, "global_step in last.pt")
    expect_equal(torch.load(os.path.join(_d, "best.pt"))["global_step"], 4, "global_step in best.pt")
### BEGIN HIDDEN TESTS
run_hidden("15-10", "checkpoint", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. The Trainer
#
# Now the loop. The constructor (given) stores everything; you write the methods marked below. Read the
# lifecycle in section 0 again: it is the specification. Points that need care:
#
# * **Starting.** `fit` first puts the model in `train()` mode (it may come back from an evaluation in
#   `eval()` mode) and drops gradients left from before with `optimizer.zero_grad(set_to_none=True)`, then
#   fires `on_fit_start`. After every optimizer step, zero the gradients the same way
#   (`optimizer.zero_grad(set_to_none=True)`: everything the optimizer trains, not only the model): a
#   parameter that gets no gradient before the next step then has `.grad is None`, and the optimizer skips
#   it (a zero gradient would still move it under weight decay or momentum). `fit` returns the trainer.
# * **Devices.** The model goes to `device` (default: wherever its parameters already are); every batch,
#   training and validation alike, is moved there too, whatever its structure (a tensor, or
#   tuples/lists/dicts of tensors; leave other values alone, a NumPy array included). `Module.to` moves parameters in place, so an
#   optimizer built before the move keeps working.
# * **The loss.** `loss_fn(model, batch)` returns a scalar loss for one batch (a Lightning-style
#   `training_step`); the Trainer never looks inside the batch.
# * **Gradient accumulation.** Divide each batch's loss by `accum_steps` before `backward`, and step the
#   optimizer when `batch_in_epoch` (batches done in this epoch, counted *after* the current one) is a
#   multiple of `accum_steps` or equals `len(train_loader)`. With equal batch sizes, `accum_steps=k`
#   batches of size `b` give exactly the gradient of one batch of size `k*b` with a mean loss.
# * **Mixed precision.** `precision="bf16"` runs forward and loss under
#   `torch.autocast(device.type, dtype=torch.bfloat16)`; `"fp16"` uses `torch.float16` and, when no scaler
#   was passed, creates `torch.amp.GradScaler(device.type, enabled=(device.type == "cuda"))`; `"32"` uses no
#   autocast. Backward runs outside autocast. Parameters stay float32 throughout.
# * **GradScaler.** If `self.scaler` is not None: `scaler.scale(loss / accum_steps).backward()`, and at a step
#   `scaler.unscale_(optimizer)` **before** measuring or clipping gradients, then `scaler.step(optimizer)` and
#   `scaler.update()`. (A disabled scaler makes all of these no-ops, which is why the code need not branch.)
# * **Skipped steps.** A step the scaler skips (inf or nan gradients) is still an optimizer step of the
#   lifecycle: the scheduler steps, `global_step` counts it and a row is logged.
# * **Logging.** Each optimizer step appends one dict to `self.history`:
#   `{"step": global_step (after the increment), "epoch": epoch, "loss": mean of the batch losses (floats,
#   not divided by accum_steps) since the previous step, "lr": optimizer.param_groups[0]["lr"] used for this
#   step, as a float (read it before the scheduler steps; a tensor learning rate is updated in place by the
#   scheduler, so log its value, not the tensor), "grad_norm": global L2 norm of the (unscaled) gradients
#   before clipping; 0.0 when no parameter has a gradient}`. Store that norm in `self.last_grad_norm`
#   before calling `on_before_optimizer_step`.
#   Clip with your `clip_grad_norm` when `max_grad_norm` is not None.
# * **Validation** (`validate`): in `eval()` mode and under `torch.no_grad()` (and the same autocast),
#   average `loss_fn` over the validation batches (a plain mean of the per-batch losses), store
#   `metrics = {"val_loss": value}` in `self.metrics`, append `{"step", "epoch", "val_loss"}` to
#   `self.val_history`, switch back to `train()`, fire `on_validation_end(trainer, metrics)`, and return
#   `metrics`. That is one dict: the one stored in `self.metrics` is the one the hook gets and `validate` returns. A validation loader with no batches gives `val_loss` nan (the mean of no losses) without an
#   error, stored, logged and passed on like any other value.
# * **Resuming.** `fit(ckpt_path)` first calls `self.load_checkpoint(ckpt_path)` (section 7), then runs the
#   usual loop starting from the restored `epoch` and `batch_in_epoch`. `on_epoch_start` is not fired again
#   for an epoch resumed in the middle. Call `sampler.set_epoch(self.epoch)` at the start of each epoch
#   (when the loader's sampler has it) *before* creating the epoch's iterator. If `self._pending_rng` is not
#   None right after you created the iterator, restore it with `restore_rng_state` and set it to None
#   (belt and braces: section 7 explains why).
# * **Progress** (a convenience, not graded). With `progress=True`, show a tqdm bar per epoch with the running loss.

# %% [solution] id=trainer_impl
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
        self.global_step = 0        # optimizer steps taken
        self.epoch = 0              # current epoch (0-based)
        self.batch_in_epoch = 0     # batches finished in the current epoch
        self.should_stop = False
        self.last_grad_norm = float("nan")
        self.history, self.val_history, self.metrics = [], [], {}
        self._batch_losses = []     # losses (floats) of the batches since the last optimizer step
        self._pending_rng = None    # RNG snapshot to restore once the epoch's iterator exists

    # ----------------------------------------------------------------- helpers
    def call(self, hook: str, *args) -> None:
        """Fire ``hook`` on every callback, in order."""
        for cb in self.callbacks:
            fn = getattr(cb, hook, None)
            if fn is not None:
                fn(self, *args)

    def to_device(self, batch):
        """Move every tensor inside ``batch`` (tensor, tuple, list, dict) to self.device."""
        ### BEGIN SOLUTION
        if isinstance(batch, torch.Tensor):
            return batch.to(self.device)
        if isinstance(batch, dict):
            return {k: self.to_device(v) for k, v in batch.items()}
        if isinstance(batch, (list, tuple)):
            moved = [self.to_device(v) for v in batch]
            return type(batch)(moved) if isinstance(batch, list) else tuple(moved)
        return batch
        ### END SOLUTION

    def autocast(self):
        """The autocast context for self.precision (a null context for "32")."""
        ### BEGIN SOLUTION
        if self.precision == "bf16":
            return torch.autocast(self.device.type, dtype=torch.bfloat16)
        if self.precision == "fp16":
            return torch.autocast(self.device.type, dtype=torch.float16)
        return contextlib.nullcontext()
        ### END SOLUTION

    def steps_done(self) -> bool:
        return self.max_steps is not None and self.global_step >= self.max_steps

    # -------------------------------------------------------------------- loop
    def fit(self, ckpt_path=None):
        """Train until max_epochs, max_steps or should_stop; resume from ckpt_path first if given."""
        ### BEGIN SOLUTION
        if ckpt_path is not None:
            self.load_checkpoint(ckpt_path)
        self.model.train()
        self.optimizer.zero_grad(set_to_none=True)
        self.call("on_fit_start")
        while self.epoch < self.max_epochs and not self.should_stop and not self.steps_done():
            if not self.train_epoch():
                break  # max_steps reached inside the epoch: leave it unfinished
            if self.val_loader is not None:
                self.validate()
            self.call("on_epoch_end")
            self.epoch += 1
            self.batch_in_epoch = 0
        self.call("on_fit_end")
        return self
        ### END SOLUTION

    def train_epoch(self) -> bool:
        """Run the rest of the current epoch. Returns False if max_steps stopped it early."""
        ### BEGIN SOLUTION
        sampler = getattr(self.train_loader, "sampler", None)
        if hasattr(sampler, "set_epoch"):
            sampler.set_epoch(self.epoch)
        if self.batch_in_epoch == 0:
            self.call("on_epoch_start")
        iterator = iter(self.train_loader)
        if self._pending_rng is not None:
            restore_rng_state(self._pending_rng)
            self._pending_rng = None
        n_batches = len(self.train_loader)
        bar = tqdm(total=n_batches, initial=self.batch_in_epoch, desc=f"epoch {self.epoch}",
                   disable=not self.progress, leave=False)
        try:
            for batch in iterator:
                batch_idx = self.batch_in_epoch
                batch = self.to_device(batch)
                self.call("on_batch_start", batch, batch_idx)
                with self.autocast():
                    loss = self.loss_fn(self.model, batch)
                scaled = loss / self.accum_steps
                if self.scaler is not None:
                    scaled = self.scaler.scale(scaled)
                scaled.backward()
                self.call("on_after_backward")
                loss_value = float(loss.detach())
                self._batch_losses.append(loss_value)
                self.batch_in_epoch += 1
                if self.batch_in_epoch % self.accum_steps == 0 or self.batch_in_epoch == n_batches:
                    self.optimizer_step()
                self.call("on_batch_end", batch, batch_idx, loss_value)
                bar.update(1)
                bar.set_postfix(loss=f"{loss_value:.4f}", step=self.global_step)
                if self.steps_done():
                    return False
        finally:
            bar.close()
        return True
        ### END SOLUTION

    def optimizer_step(self) -> None:
        """Unscale, measure, clip, step, update, zero, schedule, count and log one optimizer step."""
        ### BEGIN SOLUTION
        if self.scaler is not None:
            self.scaler.unscale_(self.optimizer)
        params = [p for group in self.optimizer.param_groups for p in group["params"]]
        if self.max_grad_norm is not None:
            norm = clip_grad_norm(params, self.max_grad_norm)
        else:
            grads = [p.grad.detach() for p in params if p.grad is not None]
            norm = (torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
                    if grads else torch.tensor(0.0))
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
        self.history.append({"step": self.global_step, "epoch": self.epoch,
                             "loss": sum(self._batch_losses) / len(self._batch_losses),
                             "lr": lr, "grad_norm": self.last_grad_norm})
        self._batch_losses = []
        ### END SOLUTION

    def validate(self) -> dict:
        """Average loss over val_loader (eval mode, no grad); fires on_validation_end."""
        ### BEGIN SOLUTION
        self.model.eval()
        losses = []
        with torch.no_grad():
            for batch in self.val_loader:
                with self.autocast():
                    losses.append(float(self.loss_fn(self.model, self.to_device(batch))))
        self.model.train()
        metrics = {"val_loss": sum(losses) / len(losses) if losses else float("nan")}
        self.metrics = metrics
        self.val_history.append({"step": self.global_step, "epoch": self.epoch, **metrics})
        self.call("on_validation_end", metrics)
        return metrics
        ### END SOLUTION

    # ------------------------------------------------------------- checkpoints
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
        # weights_only=False because a checkpoint may hold arbitrary callback state; load only your own files.
        self.load_state_dict(torch.load(path, map_location="cpu", weights_only=False))

# %% [markdown]
# A first look, on a toy problem: the printing callback shows the hooks firing, with `accum_steps=2`
# (so two batches per optimizer step) and clipping.

# %%
_X, _Y = torch.randn(16, 4), torch.randn(16, 1)
_model = nn.Linear(4, 1)
_opt = torch.optim.SGD(_model.parameters(), lr=0.1)
_toy = Trainer(_model, _opt, DataLoader(list(zip(_X, _Y)), batch_size=4),
               lambda m, b: F.mse_loss(m(b[0]), b[1]), callbacks=[PrintEvents()], max_epochs=2,
               accum_steps=2, max_grad_norm=1.0)
try:
    _toy.fit()
    print(_toy.history[-1])
except NotImplementedError:
    print("(implement the Trainer's methods above, then run this cell again)")

# %% [tests] id=trainer_tests points=5
class _Log(Callback):
    def __init__(self): self.ev = []
    def on_fit_start(self, t): self.ev.append("fit_start")
    def on_batch_start(self, t, b, i): self.ev.append("batch_start")
    def on_before_optimizer_step(self, t): self.ev.append("step")
    def on_fit_end(self, t): self.ev.append("fit_end")
_log = _Log()
_m = nn.Linear(3, 1)
_tr = Trainer(_m, torch.optim.SGD(_m.parameters(), lr=0.0), DataLoader(list(zip(torch.randn(8, 3), torch.randn(8, 1))),
              batch_size=2), lambda m, b: F.mse_loss(m(b[0]), b[1]), callbacks=[_log], accum_steps=2, max_epochs=1)
_tr.fit()
expect_equal(_log.ev, ["fit_start"] + ["batch_start", "batch_start", "step"] * 2 + ["fit_end"],
             "the callback events for 4 batches with accum_steps=2")
expect_equal((_tr.global_step, len(_tr.history)), (2, 2), "(global_step, len(history)) after fit()")
expect(set(_tr.history[0]) >= {"step", "epoch", "loss", "lr", "grad_norm"},
       f"history entries with step, epoch, loss, lr and grad_norm; got {sorted(_tr.history[0])}")
### BEGIN HIDDEN TESTS
run_hidden("15-10", "trainer", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 7. What a checkpoint must hold for exact resumption
#
# Go through one optimizer step and ask, for each input, "where does this come from, and would a fresh
# process get it right?"
#
# | state | where it lives | what goes wrong if you forget it |
# |---|---|---|
# | weights | `model.state_dict()` | everything |
# | Adam moments, momentum, step counts | `optimizer.state_dict()` | the first steps after resuming are "cold" |
# | learning-rate schedule position | `scheduler.state_dict()` (`last_epoch`) | the lr restarts from its initial value |
# | loss-scale, growth tracker | `scaler.state_dict()` | a different scale: different skipped steps, overflow |
# | `global_step`, `epoch`, `batch_in_epoch` | the Trainer | wrong stopping point, wrong accumulation groups |
# | where we are in the data order | `sampler.state_dict()` | the epoch restarts: some batches seen twice, some never |
# | dropout masks, augmentation noise | the RNGs (section 3) | different random numbers from the resume point on |
# | callback state (EMA weights, early-stopping counter, best score) | each callback's `state_dict()` | averaged weights or best-checkpoint logic reset |
#
# And one thing **not** to do: step the scheduler again after loading it. Its state already says how many
# steps were taken; an extra `scheduler.step()` "to catch up" shifts the whole schedule by one.
#
# Write `trainer_state_dict(trainer)` returning a dict with (at least) these keys: `"model"`,
# `"optimizer"`, `"scheduler"` (None without a scheduler), `"scaler"` (None without a scaler), `"global_step"`,
# `"epoch"`, `"batch_in_epoch"`, `"rng"` (your `capture_rng_state()`), `"sampler"` (the loader's sampler's
# `state_dict()`, or None if it has none), `"callbacks"` (a list with each callback's `state_dict()` or None, in
# order) and `"history"` (so the curves continue after a resume). `trainer_load_state_dict(trainer, ckpt)`
# restores all of it into an already constructed Trainer. Two details:
#
# * a *disabled* `GradScaler` (fp16 without a GPU) has an empty `state_dict()`, and loading an empty dict
#   into an enabled scaler (the same run resumed on a GPU) raises: skip an empty scaler state;
# * restore the RNGs, **and** put the snapshot in `trainer._pending_rng` so that `train_epoch` restores it
#   again right after it created the epoch's iterator. If some loader does draw from the global generator
#   when its iterator is created (section 2), this second restore is what keeps the two runs identical.
#
# Where may a checkpoint be written? Anywhere between two optimizer steps: in `on_batch_end` right after a
# step (mid-epoch or after the last batch, which is what `CheckpointCallback` does), in `on_epoch_end`, or
# after `fit()` returned. The gradients of an unfinished accumulation group are not part of the checkpoint,
# so a state saved in the middle of a group is not meant to resume exactly.
#
# (The Trainer's `state_dict()` then fires `on_save_checkpoint` and `load_state_dict` fires
# `on_load_checkpoint`; that part is already written above.)

# %% [solution] id=resume_impl
def trainer_state_dict(trainer) -> dict:
    """Everything needed to continue ``trainer`` bit-exactly in a fresh process (plain data + tensors)."""
    ### BEGIN SOLUTION
    sampler = getattr(trainer.train_loader, "sampler", None)
    return {
        "model": trainer.model.state_dict(),
        "optimizer": trainer.optimizer.state_dict(),
        "scheduler": trainer.scheduler.state_dict() if trainer.scheduler is not None else None,
        "scaler": trainer.scaler.state_dict() if trainer.scaler is not None else None,
        "global_step": trainer.global_step,
        "epoch": trainer.epoch,
        "batch_in_epoch": trainer.batch_in_epoch,
        "rng": capture_rng_state(),
        "sampler": sampler.state_dict() if hasattr(sampler, "state_dict") else None,
        "callbacks": [cb.state_dict() if hasattr(cb, "state_dict") else None for cb in trainer.callbacks],
        "history": [dict(row) for row in trainer.history],
    }
    ### END SOLUTION


def trainer_load_state_dict(trainer, ckpt: dict) -> None:
    """Restore a checkpoint made by trainer_state_dict into an already constructed Trainer."""
    ### BEGIN SOLUTION
    trainer.model.load_state_dict(ckpt["model"])
    trainer.optimizer.load_state_dict(ckpt["optimizer"])
    if trainer.scheduler is not None and ckpt.get("scheduler") is not None:
        trainer.scheduler.load_state_dict(ckpt["scheduler"])
    if trainer.scaler is not None and ckpt.get("scaler"):
        trainer.scaler.load_state_dict(ckpt["scaler"])
    trainer.global_step = int(ckpt["global_step"])
    trainer.epoch = int(ckpt["epoch"])
    trainer.batch_in_epoch = int(ckpt["batch_in_epoch"])
    sampler = getattr(trainer.train_loader, "sampler", None)
    if ckpt.get("sampler") is not None and hasattr(sampler, "load_state_dict"):
        sampler.load_state_dict(ckpt["sampler"])
    for cb, state in zip(trainer.callbacks, ckpt.get("callbacks") or []):
        if state is not None and hasattr(cb, "load_state_dict"):
            cb.load_state_dict(state)
    trainer.history = [dict(row) for row in ckpt.get("history", [])]
    restore_rng_state(ckpt["rng"])
    trainer._pending_rng = ckpt["rng"]
    ### END SOLUTION

# %% [markdown]
# The check below is the heart of this notebook, in miniature: train 6 steps straight; train 4, save,
# throw every object away, scramble every random generator, rebuild from scratch, resume, finish. The
# model has dropout, so the torch generator matters; the data order is shuffled, so the sampler
# matters; the learning rate decays every step, so the scheduler matters.

# %% [tests] id=resume_tests points=6
def _build(max_steps):
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 1))
    o = torch.optim.AdamW(m.parameters(), lr=0.05)
    s = torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.8)
    g = torch.Generator().manual_seed(1)
    data = list(zip(torch.randn(12, 4, generator=g), torch.randn(12, 1, generator=g)))
    return Trainer(m, o, make_loader(data, 4, seed=5), lambda mm, b: F.mse_loss(mm(b[0]), b[1]),
                   scheduler=s, max_epochs=2, max_steps=max_steps)
_straight = _build(None).fit()
with tempfile.TemporaryDirectory() as _d:
    _first = _build(4).fit()
    _first.save_checkpoint(os.path.join(_d, "ckpt.pt"))
    del _first
    torch.manual_seed(999); np.random.seed(999); random.seed(999)
    _resumed = _build(None).fit(ckpt_path=os.path.join(_d, "ckpt.pt"))
for _k, _v in _straight.model.state_dict().items():
    expect_equal(_resumed.model.state_dict()[_k], _v, f"{_k} after 4 steps, a checkpoint and a resumed run, vs a "
                 f"run straight through")
### BEGIN HIDDEN TESTS
run_hidden("15-10", "resume", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 8. Putting it together on FashionMNIST
#
# A small MLP with dropout, AdamW, a cosine schedule with warm-up, accumulation, clipping, an EMA of the
# weights, early stopping and checkpoints every 20 steps. On a GPU we use bf16 autocast; on CPU full
# precision. (If the real data set is not on disk and cannot be downloaded, `course.student.data.load` returns a
# synthetic stand-in with the same shapes; the loss falls on it too.)

# %%
from course.student.data import load as load_dataset


class Indexed(Dataset):
    """(image, label) -> (flattened image, label); a small subset, so demos stay quick on a CPU."""

    def __init__(self, base, n):
        self.base, self.n = base, min(n, len(base))

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        x, y = self.base[i]
        return x.flatten(), y


def fashion_setup(workdir, *, n_train=3000, n_val=500, max_epochs=3, max_steps=None, device="cpu",
                  callbacks_extra=(), progress=True, seed=0):
    torch.manual_seed(seed)
    train = Indexed(load_dataset("fashionmnist", train=True, verbose=progress), n_train)  # says if synthetic
    val = Indexed(load_dataset("fashionmnist", train=False, verbose=False), n_val)
    model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
    steps_per_epoch = math.ceil(n_train / 64 / 2)
    total = steps_per_epoch * max_epochs
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / 10) * 0.5 * (1 + math.cos(math.pi * min(s, total) / total)))
    callbacks = [EMACallback(0.9), EarlyStopping(patience=2),
                 CheckpointCallback(workdir, every_n_steps=20, keep_last=2, monitor="val_loss"),
                 *callbacks_extra]
    loss_fn = lambda m, b: F.cross_entropy(m(b[0]), b[1])
    precision = "bf16" if torch.device(device).type == "cuda" else "32"
    return Trainer(model, opt, make_loader(train, 64, seed=seed), loss_fn, scheduler=sched,
                   val_loader=DataLoader(val, batch_size=256), callbacks=callbacks, max_epochs=max_epochs,
                   max_steps=max_steps, accum_steps=2, max_grad_norm=1.0, precision=precision, device=device,
                   progress=progress)


if run_demos():
    demo_dir = tempfile.mkdtemp(prefix="mini-trainer-")
    t0 = time.perf_counter()
    try:
        demo = fashion_setup(demo_dir, device=DEVICE).fit()
    except NotImplementedError:
        demo = None  # the demos below wait for it
        print("The Trainer is not complete yet (a cell above still says YOUR CODE HERE): this demo and the two "
              "below run once it is.")
    if demo is not None:
        print(f"{demo.global_step} steps in {time.perf_counter() - t0:.1f} s; validation: "
              + ", ".join(f"{r['val_loss']:.3f}" for r in demo.val_history))
        print("checkpoint folder:", sorted(os.listdir(demo_dir)))

# %% [markdown]
# The logged curves: loss per step (and its running mean), the learning-rate schedule (warm-up, then
# cosine decay), and the gradient norm before clipping (the dashed line is `max_grad_norm`).

# %%
if run_demos() and demo is not None:  # None: the Trainer is not written yet
    import matplotlib.pyplot as plt

    steps = [r["step"] for r in demo.history]
    losses = np.array([r["loss"] for r in demo.history])
    fig, ax = plt.subplots(1, 3, figsize=(14, 3.5))
    ax[0].plot(steps, losses, alpha=0.4, label="loss per step")
    ax[0].plot(steps, np.convolve(losses, np.ones(10) / 10, mode="same"), label="running mean (10)")
    ax[0].plot([r["step"] for r in demo.val_history], [r["val_loss"] for r in demo.val_history], "o-",
               label="validation")
    ax[0].set_xlabel("step"); ax[0].set_title("loss"); ax[0].legend()
    ax[1].plot(steps, [r["lr"] for r in demo.history]); ax[1].set_title("learning rate"); ax[1].set_xlabel("step")
    ax[2].plot(steps, [r["grad_norm"] for r in demo.history]); ax[2].axhline(1.0, ls="--", c="gray")
    ax[2].set_title("gradient norm (before clipping)"); ax[2].set_xlabel("step")
    plt.tight_layout(); plt.show()

    ema_model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10)).to(DEVICE)
    demo.callbacks[0].copy_to(ema_model)
    val_loss = lambda m: float(np.mean([F.cross_entropy(m.eval()(x.to(DEVICE)), y.to(DEVICE)).item()
                                        for x, y in demo.val_loader]))
    with torch.no_grad():
        print(f"validation loss, raw weights {val_loss(demo.model):.4f}, EMA weights {val_loss(ema_model):.4f}")

# %% [markdown]
# ### Kill it, resume it, compare
#
# Now the real thing, with processes. We fork three child processes (Linux `fork`: each gets a copy of
# this kernel's memory, then lives on its own):
#
# 1. **straight**: trains 2 epochs without interruption and saves its final weights;
# 2. **victim**: the same run, checkpointing every 5 steps; this notebook watches the checkpoint folder
#    and sends the process `SIGKILL` (no chance to clean up, exactly like a pre-empted cloud machine) as
#    soon as `last.pt` reaches step 23 or later (the second epoch has 16 steps, so this lands mid-epoch);
# 3. **resumer**: scrambles every random generator, builds everything from scratch, resumes from `last.pt`
#    and finishes.
#
# Everything runs on CPU with one thread, so that the straight and resumed runs do the same arithmetic in
# the same order. (Different thread counts may sum in a different order and differ in the last bit; on
# GPU you also need `torch.use_deterministic_algorithms(True)`.)

# %%
import multiprocessing as mp
import signal


def _child(kind, workdir, out):
    torch.set_num_threads(1)
    if kind == "resumer":
        torch.manual_seed(12345); np.random.seed(12345); random.seed(12345)
    t = fashion_setup(workdir, n_train=2000, n_val=200, max_epochs=2, device="cpu", progress=False)
    t.callbacks = [cb for cb in t.callbacks if not isinstance(cb, EarlyStopping)]
    if kind == "victim":  # slow it down a little, so the kill surely lands before the run ends
        t.callbacks.append(type("Slow", (Callback,), {"on_batch_end": lambda self, *a: time.sleep(0.03)})())
    for cb in t.callbacks:
        if isinstance(cb, CheckpointCallback):
            cb.every_n_steps = 5
    t.fit(ckpt_path=os.path.join(workdir, "last.pt") if kind == "resumer" else None)
    torch.save({"model": t.model.state_dict(), "steps": t.global_step, "history": t.history}, out)


if run_demos() and demo is not None:  # None: the Trainer is not written yet
    ctx = mp.get_context("fork")
    base = tempfile.mkdtemp(prefix="kill-demo-")
    straight_dir, victim_dir = os.path.join(base, "straight"), os.path.join(base, "victim")
    p = ctx.Process(target=_child, args=("straight", straight_dir, os.path.join(base, "straight.pt")))
    p.start(); p.join()

    victim = ctx.Process(target=_child, args=("victim", victim_dir, os.path.join(base, "victim.pt")))
    victim.start()
    last = os.path.join(victim_dir, "last.pt")
    with tqdm(desc="waiting for step 23 of the victim", total=23) as bar:
        while victim.is_alive():
            if os.path.exists(last):
                step = torch.load(last, weights_only=False)["global_step"]
                bar.n = min(step, 23); bar.refresh()
                if step >= 23:
                    os.kill(victim.pid, signal.SIGKILL)
                    break
            time.sleep(0.05)
    victim.join()
    ck = torch.load(last, weights_only=False)
    print(f"victim killed (exit code {victim.exitcode}); last.pt is at step {ck['global_step']}, "
          f"epoch {ck['epoch']}, batch {ck['batch_in_epoch']} of the epoch; files: {sorted(os.listdir(victim_dir))}")

    r = ctx.Process(target=_child, args=("resumer", victim_dir, os.path.join(base, "resumed.pt")))
    r.start(); r.join()
    a, b = torch.load(os.path.join(base, "straight.pt")), torch.load(os.path.join(base, "resumed.pt"))
    same = all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])
    print(f"straight: {a['steps']} steps, resumed: {b['steps']} steps; parameters bit-identical: {same}")
    print(f"final training loss: straight {a['history'][-1]['loss']:.6f}, resumed {b['history'][-1]['loss']:.6f}")

# %% [markdown]
# ## 9. What Lightning and Fabric do for you
#
# You have now written, in miniature, what these libraries give you. Point by point:
#
# | you wrote | Lightning (`L.Trainer`) | Fabric (`L.Fabric`) |
# |---|---|---|
# | the loop, `fit`, epochs, `max_steps` | `Trainer.fit(model, datamodule)`; the loop is theirs, you write `training_step` | the loop stays **yours**; Fabric wraps model, optimizer and loaders |
# | callbacks and their order | ~30 hooks on `Callback` and on the `LightningModule` itself | `fabric.call("hook_name", ...)` on objects you pass in; you decide when |
# | devices, `to_device` | automatic, plus multi-GPU/multi-node strategies (DDP, FSDP, DeepSpeed) | `fabric.setup(...)`, `fabric.setup_dataloaders(...)`, same strategies |
# | accumulation | `accumulate_grad_batches=k` (and it skips the all-reduce on non-stepping batches under DDP) | `with fabric.no_backward_sync(model, enabled=...)` plus your own counter |
# | clipping, grad-norm logging | `gradient_clip_val`, `gradient_clip_algorithm` | `fabric.clip_gradients(model, optimizer, max_norm=...)` |
# | autocast, `GradScaler` | `precision="bf16-mixed"` / `"16-mixed"`, scaler handled by a precision plugin | same `precision=` argument; `fabric.backward(loss)` scales for you |
# | `history`, plots | loggers (TensorBoard, CSV, W&B...), `self.log(...)`, progress bar with metrics | `fabric.log_dict(...)` with the same loggers |
# | `EarlyStopping`, EMA, checkpoints | `EarlyStopping`, `ModelCheckpoint(save_top_k, save_last, monitor)`, `WeightAveraging`/EMA callbacks | none built in; `fabric.save(path, state)` / `fabric.load(path, state)` for any dict of objects |
# | atomic writes | checkpoint I/O plugins; remote file systems via fsspec | same I/O layer |
# | exact resumption | model, optimizer, schedulers, precision-plugin (scaler) state, loop progress, callback states; **RNG state is not in the default checkpoint**, and mid-epoch resume needs a stateful dataloader (it warns otherwise) | whatever you put in the `state` dict: you are responsible for the sampler and the RNGs, as here |
# | multi-process anything | rank-zero logging, barriers, distributed samplers, gathering metrics | same primitives, explicit |
#
# The lesson is not "write your own trainer": the libraries handle distributed training, dozens of
# corner cases and hardware you may never test on. The lesson is that there is no magic in them. When a
# resumed run diverges, a metric looks wrong after accumulation, or a checkpoint from a pre-empted job will
# not load, you now know which piece of state or which step of the loop to suspect, and how to check it.
