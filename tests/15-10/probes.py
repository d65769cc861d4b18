"""Probes for 15-10 (run next to the submission; return plain data only).

Every probe builds fresh objects (models, optimizers, loaders, Trainers) on each call: the worker
process is shared between checks, so nothing may be reused from an earlier call.
"""
import collections
import os
import random
import re
import shutil
import tempfile
import types
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # before any cuBLAS use (GPU resumption check)

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset

from course.judge.probelib import (capture_error, changes, get, global_state, needs_values, relative_device,
                                   stand_in_device)

HOOKS = ["on_fit_start", "on_fit_end", "on_epoch_start", "on_epoch_end", "on_batch_start", "on_batch_end",
         "on_after_backward", "on_before_optimizer_step", "on_validation_end", "on_save_checkpoint",
         "on_load_checkpoint"]


def _callback_base(ns):
    base = ns.get("Callback")
    return base if isinstance(base, type) else object


def _recorder(ns):
    """A callback recording (hook name, batch_idx or None) for every hook, plus trained sample indices."""
    base = _callback_base(ns)

    class Recorder(base):
        def __init__(self):
            self.events, self.indices, self.out_dtypes = [], [], []

    def make(name):
        def hook(self, trainer, *args):
            idx = None
            if name in ("on_batch_start", "on_batch_end") and len(args) >= 2:
                idx = int(args[1])
            self.events.append([name, idx])
            if name == "on_batch_start" and isinstance(args[0], (list, tuple)) and len(args[0]) >= 3:
                self.indices.extend(int(i) for i in args[0][2].reshape(-1).tolist())
        return hook

    for h in HOOKS:
        setattr(Recorder, h, make(h))
    return Recorder()


def _tensor_state(module):
    return {k: v.detach().cpu().clone() for k, v in module.state_dict().items()}


def _scramble_rngs(seed):
    torch.manual_seed(seed)
    np.random.seed(seed % 2**32)
    random.seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def _seed_all(seed):
    _scramble_rngs(seed)


# ------------------------------------------------------------------ clipping
def clip(ns, grads, max_norm, graph_grads=False, as_list=False):
    """grads: list of tensors or None; returns the returned norm and the clipped grads.

    as_list: the parameters are passed as a list (otherwise as an iterator).
    graph_grads: the gradients are non-leaf tensors with an autograd history (as after
    backward(create_graph=True)); the history's last node is returned, to see whether clipping was recorded.
    """
    params, originals = [], []
    for g in grads:
        shape = g.shape if g is not None else (3,)
        p = torch.zeros(shape, dtype=g.dtype if g is not None else torch.float64, requires_grad=True)
        if g is None:
            p.grad = None
        elif graph_grads:
            p.grad = g.clone().requires_grad_() + 0.0
        else:
            p.grad = g.clone()
        params.append(p)
        originals.append(p.grad)
    norm = get(ns, "clip_grad_norm")(list(params) if as_list else iter(params), max_norm)
    return {"norm": float(norm) if isinstance(norm, (torch.Tensor, float, int)) else float("nan"),
            "is_tensor": isinstance(norm, torch.Tensor),
            "norm_shape": list(norm.shape) if isinstance(norm, torch.Tensor) else None,
            "norm_dtype": str(norm.dtype) if isinstance(norm, torch.Tensor) else None,
            "norm_floating": bool(norm.is_floating_point()) if isinstance(norm, torch.Tensor) else None,
            "grads": [None if p.grad is None else p.grad.detach().clone() for p in params],
            "same_object": [p.grad is o for p, o in zip(params, originals)],
            "originals": [None if o is None else o.detach().clone() for o in originals],
            "grad_fns": [None if p.grad is None or p.grad.grad_fn is None else type(p.grad.grad_fn).__name__
                         for p in params]}


def clip_off_device(ns, grads, max_norm):
    """clip_grad_norm on parameters (and gradients) off the default device (probelib.stand_in_device): a tensor
    the code makes without device= lands elsewhere. Per parameter: where its .grad is, whether it is the same
    object; the returned norm's place; values (the norm, the grads) only where the inputs sit on the CPU."""
    clip = get(ns, "clip_grad_norm")

    def run(device):
        params = []
        for g in grads:
            p = torch.zeros(g.shape, dtype=g.dtype, device=device, requires_grad=True)
            p.grad = g.to(device)
            params.append(p)
        originals = [p.grad for p in params]
        norm = clip(params, max_norm)
        cpu = device == "cpu"
        return {"grad_devices": [relative_device(p.grad, device) for p in params],
                "same_object": [p.grad is o for p, o in zip(params, originals)],
                "norm_device": relative_device(norm, device) if isinstance(norm, torch.Tensor) else None,
                "norm": float(norm) if cpu and isinstance(norm, (torch.Tensor, float, int)) else None,
                "grads": [p.grad.detach().clone() for p in params] if cpu else None}
    try:
        out, home = stand_in_device(run)
    except Exception as exc:  # noqa: BLE001 (reported: mixing devices raises, as on a GPU)
        if needs_values(exc):  # values read on both stand-ins (torch.tensor of tensors): a GPU would allow it
            return {"inconclusive": f"{type(exc).__name__}: {str(exc)[:200]}"}
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    return {**out, "home": home}


# ------------------------------------------------------------------ sampler
def sampler_epochs(ns, n, seed, epochs, other_sizes=()):
    """other_sizes: samplers of these sizes with the same seed, each drawn after the main one, at every epoch
    (two samplers alive in one process; "sizes" holds their orders)."""
    S = get(ns, "ResumableRandomSampler")
    s = S(n, seed=seed)
    out = []
    for e in epochs:
        s.set_epoch(e)
        out.append([int(i) for i in s])
    sizes = []
    for m in other_sizes:
        t = S(m, seed=seed)
        row = []
        for e in epochs:
            t.set_epoch(e)
            row.append([int(i) for i in t])
        sizes.append(row)
    again = S(n, seed=seed)
    again.set_epoch(epochs[-1])
    other = S(n, seed=seed + 1)
    other.set_epoch(epochs[-1])
    again_list = [int(i) for i in again]
    # drawing an epoch's order must not touch the global torch generator
    torch.manual_seed(1)
    a = torch.rand(4)
    torch.manual_seed(1)
    fresh = S(n, seed=seed)
    fresh.set_epoch(epochs[1])
    _ = [int(i) for i in fresh]
    _ = fresh.permutation(epochs[2])
    b = torch.rand(4)
    return {"orders": out, "again": again_list, "other_seed": [int(i) for i in other],
            "rng_a": a, "rng_b": b, "sizes": sizes}


def sampler_resume(ns, n, seed, epoch, cut):
    """Iterate epoch `epoch` up to `cut` indices, save, load into a fresh sampler, finish, go on one epoch."""
    S = get(ns, "ResumableRandomSampler")
    ref = S(n, seed=seed)
    ref.set_epoch(epoch)
    full = [int(i) for i in ref]
    ref.set_epoch(epoch + 1)
    full_next = [int(i) for i in ref]

    s = S(n, seed=seed)
    s.set_epoch(epoch)
    it = iter(s)
    head = [int(next(it)) for _ in range(cut)]
    state = s.state_dict()
    del s, it
    t = S(n, seed=seed)
    t.load_state_dict(state)
    t.set_epoch(epoch)
    resaved = t.state_dict()  # set_epoch(the epoch it has) changed nothing: still `cut` into the epoch
    tail = [int(i) for i in t]
    again = [int(i) for i in t]  # a second pass of the same epoch starts at 0 again
    t.set_epoch(epoch + 1)
    nxt = [int(i) for i in t]

    # a loaded position is for the loaded epoch only: set_epoch(another) starts that epoch at 0
    u = S(n, seed=seed)
    u.load_state_dict(state)
    u.set_epoch(epoch + 1)
    other_epoch = [int(i) for i in u]

    # moving to a new epoch before drawing anything: state_dict() says position 0 of the new epoch
    v = S(n, seed=seed)
    v.set_epoch(epoch)
    itv = iter(v)
    _ = [int(next(itv)) for _ in range(cut)]
    del itv
    v.set_epoch(epoch + 1)
    state_new_epoch = v.state_dict()
    w = S(n, seed=seed)
    w.load_state_dict(state_new_epoch)
    w.set_epoch(epoch + 1)
    after_new_epoch = [int(i) for i in w]
    # a pass abandoned half-way: the next pass (no load_state_dict) starts at 0
    x = S(n, seed=seed)
    x.set_epoch(epoch)
    itx = iter(x)
    _ = [int(next(itx)) for _ in range(cut)]
    del itx
    restarted = [int(i) for i in x]
    z = S(n, seed=seed)
    z.load_state_dict(resaved)
    z.set_epoch(epoch)
    resaved_tail = [int(i) for i in z]
    # set_epoch(the epoch it has) in the middle of a live pass (nothing pending): state_dict() still says `cut`
    y = S(n, seed=seed)
    y.set_epoch(epoch)
    ity = iter(y)
    _ = [int(next(ity)) for _ in range(cut)]
    y.set_epoch(epoch)
    live_state = y.state_dict()
    del ity
    y2 = S(n, seed=seed)
    y2.load_state_dict(live_state)
    y2.set_epoch(epoch)
    live_tail = [int(i) for i in y2]
    return {"live_tail": live_tail, "full": full, "full_next": full_next, "head": head, "tail": tail, "again": again, "next": nxt,
            "restarted": restarted, "resaved_tail": resaved_tail,
            "other_epoch": other_epoch, "after_new_epoch": after_new_epoch}


def sampler_double_resume(ns, n, seed, epoch, cut1, cut2):
    """Epoch `epoch` interrupted twice: cut1 indices, save, load into a fresh sampler, cut2 more, save again, load
    into a third sampler, finish. Also the types permutation() returns and the sampler yields."""
    S = get(ns, "ResumableRandomSampler")
    ref = S(n, seed=seed)
    ref.set_epoch(epoch)
    perm = ref.permutation(epoch)
    yielded = list(ref)
    full = [int(i) for i in yielded]
    s = S(n, seed=seed)
    s.set_epoch(epoch)
    it = iter(s)
    first = [int(next(it)) for _ in range(cut1)]
    state1 = s.state_dict()
    t = S(n, seed=seed)
    t.load_state_dict(state1)
    t.set_epoch(epoch)
    it = iter(t)
    second = [int(next(it)) for _ in range(cut2)]
    state2 = t.state_dict()
    u = S(n, seed=seed)
    u.load_state_dict(state2)
    u.set_epoch(epoch)
    third = [int(i) for i in u]
    return {"full": full, "first": first, "second": second, "third": third,
            "perm_type": type(perm).__name__, "perm_item_types": sorted({type(i).__name__ for i in perm}),
            "yielded_types": sorted({type(i).__name__ for i in yielded})}


def _find_sampler(loader):
    for s in (getattr(loader, "sampler", None), getattr(getattr(loader, "batch_sampler", None), "sampler", None)):
        if hasattr(s, "state_dict") and hasattr(s, "load_state_dict"):
            return s
    raise TypeError("the loader from make_loader has no sampler with state_dict()/load_state_dict()")


def loader_batches(ns, n, batch_size, seed, cut_batches):
    """make_loader: batch contents, and resumption of the loader's sampler after cut_batches batches."""
    make = get(ns, "make_loader")
    data = TensorDataset(torch.arange(n))
    loader = make(data, batch_size, seed=seed)
    first = [b[0].tolist() for b in loader]
    other_seed = [b[0].tolist() for b in make(data, batch_size, seed=seed + 1)]
    loader2 = make(data, batch_size, seed=seed)
    it = iter(loader2)
    head = [next(it)[0].tolist() for _ in range(cut_batches)]
    state = _find_sampler(loader2).state_dict()
    loader3 = make(data, batch_size, seed=seed)
    _find_sampler(loader3).load_state_dict(state)
    tail = [b[0].tolist() for b in loader3]
    # creating the iterator must not consume the global torch generator
    torch.manual_seed(0)
    a = torch.rand(4)
    torch.manual_seed(0)
    _ = iter(make(data, batch_size, seed=seed))
    b = torch.rand(4)
    return {"first": first, "other_seed": other_seed, "head": head, "tail": tail, "rng_a": a, "rng_b": b}


# ------------------------------------------------------------------ rng
def _draws(k=5):
    return {"torch": torch.rand(k, dtype=torch.float64), "numpy": torch.from_numpy(np.random.rand(k)),
            "python": [random.random() for _ in range(k)],
            "randn": torch.randn(k, dtype=torch.float64), "gauss": [random.gauss(0, 1) for _ in range(k)],
            "np_normal": torch.from_numpy(np.random.standard_normal(k))}


def rng_roundtrip(ns, seed, via_file, warmup):
    capture, restore = get(ns, "capture_rng_state"), get(ns, "restore_rng_state")
    _seed_all(seed)
    for _ in range(warmup):  # move the generators along the stream
        torch.rand(3); torch.randn(3); np.random.rand(2); np.random.standard_normal(2); random.random()
        random.gauss(0, 1); random.gauss(0, 1)
    # an odd number of gaussians: NumPy's legacy state (has_gauss=1) and Python's random (gauss_next) now
    # hold a cached second value of a Box-Muller pair, which must survive the snapshot
    np.random.standard_normal(1)
    random.gauss(0, 1)
    cached = {"numpy": int(np.random.get_state()[3]), "python": random.getstate()[2] is not None}
    state = capture()
    if via_file:
        d = tempfile.mkdtemp(dir=".")
        path = os.path.join(d, "rng.pt")
        torch.save(state, path)
        del state
        state = torch.load(path, weights_only=False)
        shutil.rmtree(d, ignore_errors=True)
    first = _draws()
    _scramble_rngs(seed + 12345)
    restore(state)
    second = _draws()
    # the snapshot must not change when the generators move on
    restore(state)
    third = _draws()
    # a later snapshot must not change the earlier one (each call returns a snapshot of its own)
    capture()
    _scramble_rngs(seed + 54321)
    restore(state)
    fourth = _draws()
    return {"first": first, "second": second, "third": third, "fourth": fourth, "cached": cached}


class _CudaRngStandIn:
    """Two CUDA devices' generators as the torch.cuda functions that read and set them see them: each
    state is a uint8 tensor the judge chooses (no GPU is touched)."""
    NAMES = ("is_available", "device_count", "current_device", "get_rng_state", "set_rng_state",
             "get_rng_state_all", "set_rng_state_all")

    def __init__(self, states):
        self.states = [s.clone() for s in states]

    @staticmethod
    def _index(device):
        if isinstance(device, int):
            return device
        d = torch.device(device)
        return d.index or 0

    def is_available(self):
        return True

    def device_count(self):
        return len(self.states)

    def current_device(self):
        return 0

    def get_rng_state(self, device="cuda"):
        return self.states[self._index(device)].clone()

    def set_rng_state(self, new_state, device="cuda"):
        self.states[self._index(device)] = torch.as_tensor(new_state).clone()

    def get_rng_state_all(self):
        return [s.clone() for s in self.states]

    def set_rng_state_all(self, new_states):
        for i, s in enumerate(new_states):
            self.states[i] = torch.as_tensor(s).clone()

    def __enter__(self):
        self.saved = [(m, n, getattr(m, n)) for m in (torch.cuda, torch.cuda.random) for n in self.NAMES
                      if hasattr(m, n)]
        for m, n, _ in self.saved:
            setattr(m, n, getattr(self, n))
        return self

    def __exit__(self, *exc):
        for m, n, f in self.saved:
            setattr(m, n, f)


def rng_cuda_standin(ns, captured, moved):
    """capture_rng_state while the stand-in's CUDA generators hold `captured`, then they move to `moved`,
    then restore_rng_state(snapshot): the stand-in's states afterwards (CPU generators put back)."""
    capture, restore = get(ns, "capture_rng_state"), get(ns, "restore_rng_state")
    saved = torch.get_rng_state(), np.random.get_state(), random.getstate()
    fake, snapshot = _CudaRngStandIn(captured), []
    try:
        with fake:
            err = capture_error(lambda: snapshot.append(capture()))
            if not err["raised"]:
                fake.states = [m.clone() for m in moved]
                err = capture_error(restore, snapshot[0])
    finally:
        torch.set_rng_state(saved[0]); np.random.set_state(saved[1]); random.setstate(saved[2])
    return {"error": err, "after": fake.states}


def rng_cpu_snapshot_on_cuda(ns, seed, moved):
    """capture_rng_state where CUDA is not available (the stand-in says so; no CUDA state to take), the
    generators scrambled, then restore_rng_state(snapshot) where CUDA is available (the stand-in's two devices,
    as when a CPU run is resumed on a GPU node): what it raised, and the CPU generators' draws right after."""
    capture, restore = get(ns, "capture_rng_state"), get(ns, "restore_rng_state")
    saved = torch.get_rng_state(), np.random.get_state(), random.getstate()
    fake, snapshot = _CudaRngStandIn(moved), []
    fake.is_available = lambda: False
    fake.device_count = lambda: 0
    try:
        with fake:
            _seed_all(seed)
            err = capture_error(lambda: snapshot.append(capture()))
        draws = None
        if not err["raised"]:
            _scramble_rngs(seed + 1)
            del fake.is_available, fake.device_count  # the class's: available, two devices
            with fake:
                err = capture_error(restore, snapshot[0])
                if not err["raised"]:
                    draws = _draws()
    finally:
        torch.set_rng_state(saved[0]); np.random.set_state(saved[1]); random.setstate(saved[2])
    return {"error": err, "draws": draws}


# ------------------------------------------------------------------ callbacks
def early_stopping(ns, values, patience, min_delta, mode, reset_stop=False, preset=None):
    """reset_stop: should_stop is put back to False after every validation (as in a run resumed from a
    checkpoint, which does not hold should_stop); "stops" lists every validation that set it. preset: per
    validation, should_stop as another callback left it just before this one ran; "after" is should_stop
    after each on_validation_end."""
    ES = get(ns, "EarlyStopping")
    cb = ES(monitor="score", patience=patience, min_delta=min_delta, mode=mode)
    fake = types.SimpleNamespace(should_stop=False, epoch=0, global_step=0)
    stop_at, stops, after = None, [], []
    for i, v in enumerate(values):
        fake.epoch = i
        if preset is not None:
            fake.should_stop = bool(preset[i])
        cb.on_validation_end(fake, {"score": float(v), "other": 0.0})
        after.append(bool(fake.should_stop))
        if preset is not None:
            continue
        if fake.should_stop:
            stops.append(i)
            if stop_at is None:
                stop_at = i
            if reset_stop:
                fake.should_stop = False
    return {"stop_at": stop_at, "stops": stops, "after": after}


def ema_net(batchnorm=False):
    """The EMA tests' MLP; with batchnorm, a BatchNorm1d (three buffers) after the first layer."""
    mid = [nn.BatchNorm1d(4)] if batchnorm else []
    return nn.Sequential(nn.Linear(3, 4), *mid, nn.Tanh(), nn.Linear(4, 2)).double()


def ema_updates(ns, init, updates, decay, batchnorm=False, frozen=(), start_step=0):
    """init: the model's state_dict; updates: list of [advance_step(bool), new parameter values]. With
    batchnorm the live BatchNorm statistics also move at every batch. frozen: indices of parameters that
    do not require grad, in the trained model and in every module copy_to writes into. start_step: the fake
    trainer's global_step when the callback starts (one added to a run that has already taken steps)."""
    EMA = get(ns, "EMACallback")

    def net(batchnorm):
        m = ema_net(batchnorm)
        for i, p in enumerate(m.parameters()):
            p.requires_grad_(i not in frozen)
        return m

    model = net(batchnorm)
    model.load_state_dict(init)
    fake = types.SimpleNamespace(model=model, global_step=int(start_step), epoch=0, should_stop=False)
    cb = EMA(decay=decay)
    # copy_to before the first update must leave the module as it is
    untouched = net(batchnorm)
    before = [p.detach().clone() for p in untouched.parameters()]
    early = capture_error(cb.copy_to, untouched)
    early_same = all(torch.equal(a, p.detach()) for a, p in zip(before, untouched.parameters()))
    cb.on_fit_start(fake)
    for i, (advance, values) in enumerate(updates):
        with torch.no_grad():
            if values is not None:
                for p, v in zip(model.parameters(), values):
                    p.copy_(v)
            for b in model.buffers():
                b.add_(1 + i)
        if advance:
            fake.global_step += 1
        cb.on_batch_end(fake, None, i, 0.0)
    target = net(batchnorm)
    views = [p.detach() for p in target.parameters()]  # share each parameter's storage, as an optimizer's do
    cb.copy_to(target)
    ema = [p.detach().clone() for p in target.parameters()]
    in_place = [p.dtype == v.dtype and p.device == v.device and p.shape == v.shape and torch.equal(v, p.detach())
                for v, p in zip(views, target.parameters())]
    target_buffers = [b.detach().clone() for b in target.buffers()]
    graph = any(p.requires_grad and p.grad_fn is not None for p in target.parameters())
    shadow = getattr(cb, "shadow", None)
    shadow_graph = any(isinstance(s, torch.Tensor) and s.requires_grad for s in (shadow or []))
    # training the module that received the average must not change the average
    with torch.no_grad():
        for p in target.parameters():
            p.add_(1.0)
    target2 = net(batchnorm)
    cb.copy_to(target2)
    live = [p.detach().clone() for p in model.parameters()]
    return {"ema": ema, "live": live, "graph": graph, "shadow_graph": shadow_graph,
            "ema_again": [p.detach().clone() for p in target2.parameters()],
            "num_updates": cb.num_updates if isinstance(getattr(cb, "num_updates", None), int) else None,
            "early_error": early, "early_same": early_same, "target_buffers": target_buffers, "in_place": in_place}


def ema_off_device(ns, steps, decay):
    """EMACallback on a model off the default device (probelib.stand_in_device): ``steps`` optimizer steps (the
    weights move before each), then copy_to into a second model there. Where the shadow tensors and the target's
    parameters end up (relative to the model's device), or the error raised."""
    EMA = get(ns, "EMACallback")

    def run(device):
        with torch.device(device):  # the models on ``device`` (also when the default device is the stand-in)
            model, target = ema_net(), ema_net()
        fake = types.SimpleNamespace(model=model, global_step=0, epoch=0, should_stop=False)
        cb = EMA(decay=decay)
        cb.on_fit_start(fake)
        for i in range(steps):
            with torch.no_grad():
                for p in model.parameters():
                    p.mul_(0.5)
            fake.global_step += 1
            cb.on_batch_end(fake, None, i, 0.0)
        shadow = getattr(cb, "shadow", None)
        where = [relative_device(t, device) if isinstance(t, torch.Tensor) else type(t).__name__
                 for t in (shadow if isinstance(shadow, (list, tuple)) else [])]
        # copy_to's own error is data: with the roles swapped, a shadow left on the default (meta) device cannot be
        # copied out, and that is the shadow's fault, reported above
        try:
            cb.copy_to(target)
            copied = {"raised": False}
        except Exception as exc:  # noqa: BLE001
            copied = {"raised": True, "type": type(exc).__name__, "message": str(exc)[:300],
                      "needs_values": needs_values(exc)}
        return {"shadow_devices": where, "copy_to_error": copied,
                "target_devices": [relative_device(p, device) for p in target.parameters()]}
    try:
        out, home = stand_in_device(run)
    except Exception as exc:  # noqa: BLE001 (reported: mixing devices raises, as on a GPU)
        if needs_values(exc):
            return {"inconclusive": f"{type(exc).__name__}: {str(exc)[:200]}"}
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    return {**out, "home": home}


# ------------------------------------------------------------------ checkpoint
class _Boom:
    def __reduce__(self):
        raise RuntimeError("simulated crash in the middle of writing a checkpoint")


class _BoomSecond:
    """Pickles the first time at its event (the shared count), raises the second time: of the two files written at
    that step, the second cannot be written."""

    def __init__(self, count):
        self.count = count

    def __reduce__(self):
        self.count[0] += 1
        if self.count[0] >= 2:
            raise RuntimeError("simulated crash while writing the second checkpoint file of this step")
        return (int, (0,))


def _fit_with_torch_clipping(ns, t):
    """t.fit() with PyTorch's clip_grad_norm_ in place of the notebook's: a check of the loop, not of the clipping
    exercise (checked on its own)."""
    own_clip = ns.get("clip_grad_norm")
    ns["clip_grad_norm"] = lambda params, max_norm: torch.nn.utils.clip_grad_norm_(list(params), max_norm)
    try:
        t.fit()
    finally:
        if own_clip is None:
            ns.pop("clip_grad_norm", None)
        else:
            ns["clip_grad_norm"] = own_clip


def _open_files() -> int:
    """How many descriptors this process holds now."""
    return len(os.listdir("/proc/self/fd"))


def atomic(ns, old, new):
    save = get(ns, "atomic_save")
    d = tempfile.mkdtemp(dir=".")
    try:
        path = os.path.join(d, "last.pt")
        opened = _open_files()
        save({"w": old, "step": 1}, path)
        files_after_save = _open_files() - opened
        listing_ok = sorted(os.listdir(d))
        loaded = torch.load(path, weights_only=False)
        crash = capture_error(save, {"w": new, "step": 2, "boom": _Boom()}, path)
        listing_crash = sorted(os.listdir(d))
        try:
            after = torch.load(path, weights_only=False)
            after_w, after_err = after["w"], ""
        except Exception as exc:
            after_w, after_err = None, f"{type(exc).__name__}: {str(exc)[:200]}"
        save({"w": new, "step": 3}, path)
        final = torch.load(path, weights_only=False)
        # the rename itself fails: the target is a (non-empty) folder
        os.makedirs(os.path.join(d, "taken", "inside"))
        rename_crash = capture_error(save, {"w": new}, os.path.join(d, "taken"))
        listing_rename = sorted(os.listdir(d))
        return {"rename_crash": rename_crash, "listing_rename": listing_rename,
                "files_after_save": files_after_save, "files_after_all": _open_files() - opened,
                "listing": listing_ok, "listing_crash": listing_crash, "loaded": loaded["w"], "crash": crash,
                "after": after_w,
                "after_err": after_err, "final": final["w"]}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def atomic_system_tmp_unusable(ns, obj):
    """atomic_save while the system's temporary folder does not exist (as when /tmp is another, full file
    system): a temporary file in the target's own folder never needs it."""
    save = get(ns, "atomic_save")
    d = tempfile.mkdtemp(dir=".")
    old_dir, old_env = tempfile.tempdir, os.environ.get("TMPDIR")
    try:
        tempfile.tempdir = os.path.join(os.path.abspath(d), "no-such-tmp")
        os.environ["TMPDIR"] = tempfile.tempdir
        path = os.path.join(d, "last.pt")
        err = capture_error(save, {"w": obj}, path)
    finally:
        tempfile.tempdir = old_dir
        if old_env is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = old_env
    try:
        listing = sorted(os.listdir(d))
        loaded = torch.load(path, weights_only=False)["w"] if os.path.exists(path) else None
        return {"error": err, "listing": listing, "loaded": loaded}
    finally:
        shutil.rmtree(d, ignore_errors=True)


class _RaiseWhilePickled:
    """Pickling it raises `exc` itself (the probe keeps the object, to see whether that very exception arrives)."""

    def __init__(self, exc):
        self.exc = exc

    def __reduce__(self):
        raise self.exc


def atomic_errors(ns, obj):
    """atomic_save onto a pathlib.Path; then two saves over a good 'last.pt' that fail half-way through writing,
    one by a RuntimeError, one by a KeyboardInterrupt (not an Exception): what each raised (that very exception
    object or another one) and what each left in its folder."""
    import pathlib
    save = get(ns, "atomic_save")
    d = tempfile.mkdtemp(dir=".")
    try:
        target = pathlib.Path(d) / "path" / "last.pt"
        target.parent.mkdir()
        path_error = capture_error(save, {"w": obj}, target)
        path_loaded = torch.load(target, weights_only=False)["w"] if target.exists() else None
        out = {"path_error": path_error, "path_loaded": path_loaded, "path_listing": sorted(os.listdir(target.parent))}
        for name, exc in (("RuntimeError", RuntimeError("simulated crash in the middle of writing a checkpoint")),
                          ("KeyboardInterrupt", KeyboardInterrupt())):
            sub = os.path.join(d, name)
            os.makedirs(sub)
            path = os.path.join(sub, "last.pt")
            save({"w": obj}, path)
            try:
                save({"w": obj, "boom": _RaiseWhilePickled(exc)}, path)
                got = {"raised": False, "type": "", "message": "", "same": False}
            except BaseException as caught:  # noqa: BLE001 (KeyboardInterrupt is the point)
                got = {"raised": True, "type": type(caught).__name__, "message": str(caught)[:200],
                       "same": caught is exc}
            got["listing"] = sorted(os.listdir(sub))
            try:
                got["intact"] = torch.equal(torch.load(path, weights_only=False)["w"], obj)
            except Exception:  # noqa: BLE001
                got["intact"] = False
            out[name] = got
        return out
    finally:
        shutil.rmtree(d, ignore_errors=True)


def checkpoint_folder(ns, events, every, keep, mode, restart_at=None, monitor="val_loss", boom_at=None,
                      restart_from=None, boom_second=False):
    """events: list of ["step", s] (on_batch_end at global_step s) or ["val", value] (on_validation_end).

    Every checkpoint holds the position of the event that wrote it ("event"). restart_at: before that event,
    the callback object is replaced by a new one (as in a resumed process) loaded from the old one's
    state_dict(); the folder stays. restart_from ("last.pt" or "best.pt"): the new one is loaded instead from the
    callback state inside that file, as a run resumed from it would be (every checkpoint holds the state the
    callback had while it was being written, "callback"). boom_at: at that event the checkpoint cannot be
    pickled (a crash while writing it); what the hook raised there is "boom_error". boom_second: at boom_at the
    first file written pickles and the second one fails instead.
    """
    CB = get(ns, "CheckpointCallback")
    d = tempfile.mkdtemp(dir=".")
    try:
        save = ns.get("atomic_save")

        class Fake:
            def __init__(self):
                self.global_step, self.epoch, self.should_stop = 0, 0, False
                self.model = nn.Linear(2, 1)

            def state_dict(self):
                out = {"global_step": self.global_step, "event": self.event,
                       "model": {k: v.clone() for k, v in self.model.state_dict().items()},
                       "callback": cb.state_dict() if hasattr(cb, "state_dict") else None}
                if boom_at is not None and self.event == boom_at:
                    out["boom"] = _BoomSecond(second_count) if boom_second else _Boom()
                return out

            def save_checkpoint(self, path):
                (save or torch.save)(self.state_dict(), path)

        fake = Fake()
        fake.event = -1
        boom_error = None
        second_count = [0]  # files pickled at boom_at (boom_second)
        cb = CB(d, every_n_steps=every, keep_last=keep, monitor=monitor, mode=mode)
        if hasattr(cb, "on_fit_start"):
            cb.on_fit_start(fake)
        timeline = []  # the folder's step files (and last.pt) after each event
        for i, (kind, v) in enumerate(events):
            fake.event = i
            if restart_at is not None and i == restart_at:
                state = cb.state_dict() if hasattr(cb, "state_dict") else None
                if restart_from is not None:
                    state = torch.load(os.path.join(d, restart_from), weights_only=False)["callback"]
                cb = CB(d, every_n_steps=every, keep_last=keep, monitor=monitor, mode=mode)
                if state is not None and hasattr(cb, "load_state_dict"):
                    cb.load_state_dict(state)
                if hasattr(cb, "on_fit_start"):
                    cb.on_fit_start(fake)
            if kind == "step":
                fake.global_step = int(v)
                if i == boom_at:
                    boom_error = capture_error(cb.on_batch_end, fake, None, i, 0.0)
                else:
                    cb.on_batch_end(fake, None, i, 0.0)
            else:
                cb.on_validation_end(fake, {"val_loss": float(v)})
            now = sorted(os.listdir(d))
            timeline.append([int(n[5:-3]) for n in now if re.fullmatch(r"step-\d+\.pt", n)]
                            + (["last.pt"] if "last.pt" in now else []))
        names = sorted(os.listdir(d))

        def step_of(name, key="global_step"):
            p = os.path.join(d, name)
            return int(torch.load(p, weights_only=False)[key]) if os.path.exists(p) else None
        return {"names": names, "last": step_of("last.pt"), "best": step_of("best.pt"),
                "last_event": step_of("last.pt", "event"), "best_event": step_of("best.pt", "event"),
                "step_files": {n: step_of(n) for n in names if n.startswith("step-")},
                "step_events": {n: step_of(n, "event") for n in names if n.startswith("step-")},
                "timeline": timeline, "boom_error": boom_error}
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ------------------------------------------------------------------ trainer
def _mse(model, batch):
    x, y = batch[0], batch[1]
    return F.mse_loss(model(x), y)


def lifecycle(ns, n, batch_size, accum, epochs, with_val, max_steps, start_step=0, stop_at_batch=None):
    """start_step: trainer.global_step before fit() (as after loading a checkpoint); stop_at_batch: a probe
    callback sets trainer.should_stop in the on_batch_end of that batch (counted over the run, from 0)."""
    Trainer = get(ns, "Trainer")
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    X, Y = torch.randn(n, 3), torch.randn(n, 1)
    loader = DataLoader(TensorDataset(X, Y), batch_size=batch_size, shuffle=False)
    val = DataLoader(TensorDataset(X[:4], Y[:4]), batch_size=2) if with_val else None
    rec = _recorder(ns)
    callbacks = [rec]
    if stop_at_batch is not None:
        class StopInBatch(_callback_base(ns)):
            seen = 0

            def on_batch_end(self, trainer, batch, batch_idx, loss):
                if self.seen == stop_at_batch:
                    trainer.should_stop = True
                self.seen += 1
        callbacks = [StopInBatch(), rec]
    before = {k: v.clone() for k, v in model.state_dict().items()}
    t = Trainer(model, opt, loader, _mse, val_loader=val, callbacks=callbacks, max_epochs=epochs,
                max_steps=max_steps, accum_steps=accum)
    t.global_step = start_step
    t.fit()
    moved = any(not torch.equal(v, model.state_dict()[k]) for k, v in before.items())
    return {"events": rec.events, "global_step": int(t.global_step), "history_len": len(t.history),
            "weights_moved": bool(moved)}


def batch_end_losses(ns, X, Y, batch_size, accum):
    """Trainer with lr=0 (the weights never move) and accum_steps=accum; what on_batch_end receives as `loss`,
    and the gradients (weight, bias; None when absent) that on_after_backward sees after each batch."""
    Trainer = get(ns, "Trainer")
    base = _callback_base(ns)
    got, grads = [], []

    class Rec(base):
        def on_batch_end(self, trainer, batch, batch_idx, loss):
            got.append({"type": type(loss).__name__, "value": float(loss)})

        def on_after_backward(self, trainer):
            grads.append([None if p.grad is None else p.grad.detach().clone() for p in model.parameters()])

    model = nn.Linear(X.shape[1], 1).double()
    with torch.no_grad():
        model.weight.fill_(0.5)
        model.bias.fill_(-0.25)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    loader = DataLoader(TensorDataset(X, Y), batch_size=batch_size, shuffle=False)
    Trainer(model, opt, loader, _mse, callbacks=[Rec()], max_epochs=1, accum_steps=accum).fit()
    return {"losses": got, "grads": grads}


class _DictRows(Dataset):
    """Samples as dicts {"x", "y", "idx"}: the default collate gives dict batches (the Trainer must not unpack)."""

    def __init__(self, X, Y):
        self.X, self.Y = X, Y

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return {"x": self.X[i], "y": self.Y[i], "idx": i}


def _mse_dict(model, batch):
    return F.mse_loss(model(batch["x"]), batch["y"])


def explicit_run(ns, init, X, Y, batch_size, accum, epochs, max_norm, lr, gamma, max_steps, scaler_scale=None,
                 dict_batches=False, unfreeze_after=None):
    """Train a float64 MLP with the student's Trainer on a sequential loader; return log and weights.
    dict_batches: the loader yields dicts {"x", "y", "idx"}. unfreeze_after: the last layer starts frozen and
    outside the optimizer; a callback unfreezes it and adds it as a new param group in on_epoch_end of that epoch."""
    Trainer = get(ns, "Trainer")
    model = nn.Sequential(nn.Linear(X.shape[1], 5), nn.Tanh(), nn.Linear(5, Y.shape[1])).double()
    model.load_state_dict(init)
    trained = model.parameters() if unfreeze_after is None else model[0].parameters()
    if unfreeze_after is not None:
        model[2].requires_grad_(False)
    opt = torch.optim.AdamW(trained, lr=lr, weight_decay=0.05)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma) if gamma is not None else None
    data = _DictRows(X, Y) if dict_batches else TensorDataset(X, Y)
    loader = DataLoader(data, batch_size=batch_size, shuffle=False)
    scaler = None
    if scaler_scale is not None:  # an enabled CPU GradScaler with a constant power-of-two scale
        scaler = torch.amp.GradScaler("cpu", init_scale=scaler_scale, growth_interval=10**6)
    callbacks = []
    if unfreeze_after is not None:
        class Unfreeze(_callback_base(ns)):
            def on_epoch_end(self, trainer, *args):
                if int(trainer.epoch) == unfreeze_after:
                    model[2].requires_grad_(True)
                    opt.add_param_group({"params": list(model[2].parameters())})
        callbacks.append(Unfreeze())
    t = Trainer(model, opt, loader, _mse_dict if dict_batches else _mse, scheduler=sched, scaler=scaler,
                callbacks=callbacks, max_epochs=epochs, max_steps=max_steps, accum_steps=accum,
                max_grad_norm=max_norm)
    _fit_with_torch_clipping(ns, t)
    hist = [{k: float(r[k]) for k in ("step", "epoch", "loss", "lr", "grad_norm")} for r in t.history]
    return {"history": hist, "params": _tensor_state(model), "global_step": int(t.global_step)}


class _PositionSampler(torch.utils.data.Sampler):
    """Sequential order; set_epoch(e) keeps the position, the first pass starts at `start` (a resumed epoch)."""

    def __init__(self, n, start):
        self.n, self.start, self.epochs = n, start, []

    def __len__(self):
        return self.n

    def set_epoch(self, e):
        self.epochs.append(int(e))

    def state_dict(self):
        return {"start": self.start}

    def load_state_dict(self, state):
        self.start = int(state["start"])

    def __iter__(self):
        start, self.start = self.start, 0
        return iter(range(start, self.n))


def lifecycle_resumed(ns, n, batch_size, accum, epochs, epoch, batch_in_epoch, with_val):
    """A Trainer whose epoch/batch_in_epoch were set as after loading a checkpoint, with a sampler that
    resumes at the same point: fit() must continue the epoch without firing on_epoch_start for it."""
    Trainer = get(ns, "Trainer")
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    X, Y = torch.randn(n, 3), torch.randn(n, 1)
    sampler = _PositionSampler(n, batch_in_epoch * batch_size)
    loader = DataLoader(TensorDataset(X, Y), batch_size=batch_size, sampler=sampler)
    val = DataLoader(TensorDataset(X[:4], Y[:4]), batch_size=2) if with_val else None
    rec = _recorder(ns)
    t = Trainer(model, opt, loader, _mse, val_loader=val, callbacks=[rec], max_epochs=epochs, accum_steps=accum)
    t.epoch, t.batch_in_epoch = epoch, batch_in_epoch
    t.fit()
    return {"events": rec.events, "global_step": int(t.global_step), "set_epoch": list(sampler.epochs),
            "history_epochs": [int(r["epoch"]) for r in t.history]}


class _FitNet(nn.Module):
    """body is used by every batch, aux only by the first batch's loss, unused never (a frozen head)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 1).double()
        self.aux = nn.Parameter(torch.ones(2, dtype=torch.float64))
        self.unused = nn.Parameter(torch.ones(2, dtype=torch.float64))


def fit_start_run(ns, init, X, Y, stale, batch_size, outside):
    """A model left in eval() mode with stale gradients on every parameter, then fit() with AdamW
    (weight decay: a parameter with a zero gradient still moves, one with .grad None is skipped). The optimizer
    also trains a tensor outside the model (initial values ``outside``, a stale gradient too; like aux, only the
    first batch's loss uses it)."""
    Trainer = get(ns, "Trainer")
    model = _FitNet()
    model.load_state_dict(init)
    model.eval()
    for p in model.parameters():
        p.grad = torch.full_like(p, float(stale))
    temp = outside.clone().requires_grad_()
    temp.grad = torch.full_like(temp, float(stale))
    opt = torch.optim.AdamW([*model.parameters(), temp], lr=0.1, weight_decay=0.5)
    seen = {"training": [], "calls": 0}

    def loss_fn(m, batch):
        x, y = batch
        seen["training"].append(bool(m.training))
        loss = F.mse_loss(m.body(x), y)
        if seen["calls"] == 0:
            loss = loss + m.aux.sum() + temp.sum()
        seen["calls"] += 1
        return loss

    loader = DataLoader(TensorDataset(X, Y), batch_size=batch_size, shuffle=False)
    t = Trainer(model, opt, loader, loss_fn, max_epochs=1)
    returned = t.fit()
    return {"training": seen["training"], "params": _tensor_state(model), "returned_trainer": returned is t,
            "returned": type(returned).__name__, "outside": temp.detach().clone()}


def fit_ckpt_path_run(ns, n, batch_size, path, epoch, batch_in_epoch):
    """fit(ckpt_path) with load_checkpoint replaced by a stand-in that restores epoch and batch_in_epoch
    (the checkpoint format is the resume task's, judged there): what is called first, and where the loop
    continues."""
    Trainer = get(ns, "Trainer")
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    X, Y = torch.randn(n, 3), torch.randn(n, 1)
    sampler = _PositionSampler(n, batch_in_epoch * batch_size)
    loader = DataLoader(TensorDataset(X, Y), batch_size=batch_size, sampler=sampler)
    rec = _recorder(ns)

    class ProbeTrainer(Trainer):
        def load_checkpoint(self, p):
            rec.events.append(["load_checkpoint", str(p)])
            self.epoch, self.batch_in_epoch = epoch, batch_in_epoch

    t = ProbeTrainer(model, torch.optim.SGD(model.parameters(), lr=0.01), loader, _mse, callbacks=[rec],
                     max_epochs=epoch + 1)
    t.fit(path)
    return {"events": rec.events, "history_epochs": [int(r["epoch"]) for r in t.history]}


def no_grad_run(ns):
    """A loss that depends on no parameter (a fresh leaf made inside loss_fn): no parameter gets a gradient."""
    Trainer = get(ns, "Trainer")
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    X, Y = torch.randn(4, 3), torch.randn(4, 1)

    def loss_fn(m, batch):
        w = torch.full((1,), 2.0, requires_grad=True)
        return (w * batch[1]).pow(2).mean()

    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), DataLoader(TensorDataset(X, Y), batch_size=2),
                loss_fn, max_epochs=1)
    t.fit()
    return {"grad_norms": [float(r["grad_norm"]) for r in t.history], "last": float(t.last_grad_norm)}


def validation_run(ns, init, X, Y, Xv, Yv, val_batch, call_validate=False, eval_first=False, outer_no_grad=False):
    """lr=0 training with a validation loader; records the mode and grad state of every loss_fn call.
    call_validate: then validate() once more, directly (after model.eval() if eval_first; inside a
    torch.no_grad() block if outer_no_grad, with the global state before and after the call)."""
    Trainer = get(ns, "Trainer")
    model = nn.Sequential(nn.Linear(X.shape[1], 6), nn.Dropout(0.5), nn.Linear(6, 1)).double()
    model.load_state_dict(init)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    calls = []

    def loss_fn(m, batch):
        x, y = batch
        calls.append({"val": bool(x.shape[1] == Xv.shape[1] and x.dtype == Xv.dtype and
                                  any(torch.equal(x[0], r) for r in Xv)),
                      "training": bool(m.training), "grad": bool(torch.is_grad_enabled()),
                      "inference": bool(torch.is_inference_mode_enabled())})
        return F.mse_loss(m(x), y)

    t = Trainer(model, opt, DataLoader(TensorDataset(X, Y), batch_size=4), loss_fn,
                val_loader=DataLoader(TensorDataset(Xv, Yv), batch_size=val_batch), max_epochs=2)
    t.fit()
    vh = [{k: float(v) for k, v in r.items()} for r in t.val_history]
    metrics = {k: float(v) for k, v in (t.metrics or {}).items()}
    training_after = bool(model.training)
    fit_calls = list(calls)  # those of fit() only
    returned, training_after_validate, state_changes = None, None, []
    if call_validate:  # called once more, directly: its return value
        if eval_first:
            model.eval()
        if outer_no_grad:
            with torch.no_grad():
                before = global_state()
                returned = t.validate()
                state_changes = changes(before, global_state())
        else:
            returned = t.validate()
        returned = {str(k): float(v) for k, v in returned.items()} if isinstance(returned, dict) else repr(returned)[:80]
        training_after_validate = bool(model.training)
    return {"calls": fit_calls, "val_history": vh, "metrics": metrics, "training_after": training_after,
            "returned": returned, "training_after_validate": training_after_validate,
            "state_changes": state_changes}


def validate_on_device(ns, Xv, Yv, val_batch):
    """trainer.validate() called directly on a Trainer(..., device="meta") whose validation loader yields CPU
    tensors: per loss_fn call, where its x and y were (meta: moved to trainer.device). loss_fn never runs the model
    and returns a CPU loss, so the mean needs no values from the meta device."""
    Trainer = get(ns, "Trainer")
    model = nn.Linear(Xv.shape[1], 1)
    seen = []

    def loss_fn(m, batch):
        x, y = batch
        seen.append([x.device.type, y.device.type])
        return torch.tensor(0.25 * len(seen))

    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), DataLoader(TensorDataset(Xv, Yv), batch_size=2),
                loss_fn, val_loader=DataLoader(TensorDataset(Xv, Yv), batch_size=val_batch), device="meta")
    try:
        t.validate()
    except Exception as exc:  # noqa: BLE001
        if needs_values(exc):  # the code read a value on trainer.device (meta has none): a GPU would allow it
            return {"inconclusive": f"{type(exc).__name__}: {str(exc)[:200]}", "seen": seen}
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "seen": seen}
    return {"seen": seen}


def validate_empty(ns, X, Y, batch_size):
    """One epoch of fit() with a validation loader that has no batches, then validate() once more, directly: what
    was raised, val_history, trainer.metrics, what on_validation_end received and what validate() returned."""
    Trainer = get(ns, "Trainer")
    model = nn.Linear(X.shape[1], 1).double()
    got = []

    class Hook(_callback_base(ns)):
        def on_validation_end(self, trainer, metrics):
            got.append({str(k): float(v) for k, v in metrics.items()})

    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.0), DataLoader(TensorDataset(X, Y), batch_size=batch_size),
                _mse, val_loader=DataLoader(TensorDataset(X[:0], Y[:0]), batch_size=batch_size), callbacks=[Hook()],
                max_epochs=1)
    err = capture_error(t.fit)
    returned = None
    if not err["raised"]:
        box = []
        err = capture_error(lambda: box.append(t.validate()))
        if box:
            returned = ({str(k): float(v) for k, v in box[0].items()} if isinstance(box[0], dict)
                        else repr(box[0])[:80])
    return {"error": err, "val_history": [{str(k): float(v) for k, v in r.items()} for r in t.val_history],
            "metrics": {str(k): float(v) for k, v in (t.metrics or {}).items()}, "hook": got, "returned": returned,
            "steps": int(t.global_step)}


def half_loss_means(ns, y_train, y_val):
    """A zero Linear(1, 1) and loss_fn = mean |out - y| in out's dtype: under autocast each batch's loss is a
    bfloat16/float16 tensor equal to |y| (y exact in both). One epoch, batches of one, accum_steps = len(y_train),
    lr=0, per precision: the logged loss, the val_loss and the dtypes loss_fn returned."""
    Trainer = get(ns, "Trainer")
    out = {}
    for precision in ("bf16", "fp16"):
        model = nn.Linear(1, 1)
        with torch.no_grad():
            model.weight.zero_()
            model.bias.zero_()
        dtypes = []

        def loss_fn(m, batch):
            x, y = batch
            o = m(x)
            loss = (o - y.to(o.dtype)).abs().mean()
            dtypes.append(str(loss.dtype))
            return loss

        yt, yv = torch.tensor(y_train).reshape(-1, 1), torch.tensor(y_val).reshape(-1, 1)
        t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.0),
                    DataLoader(TensorDataset(torch.zeros_like(yt), yt), batch_size=1), loss_fn,
                    val_loader=DataLoader(TensorDataset(torch.zeros_like(yv), yv), batch_size=1),
                    accum_steps=len(y_train), max_epochs=1, precision=precision)
        t.fit()
        out[precision] = {"history_loss": [float(r["loss"]) for r in t.history],
                          "val_loss": [float(r["val_loss"]) for r in t.val_history], "dtypes": sorted(set(dtypes))}
    return out


def precision_run(ns, precision, device, seed=0):
    Trainer = get(ns, "Trainer")
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    X, Y = torch.randn(8, 4), torch.randint(0, 2, (8,))
    seen = {"out": [], "x_device": [], "param_dtype": [], "val_out": []}

    def loss_fn(m, batch):
        x, y = batch
        out = m(x)
        if not m.training:  # validate(): eval mode
            seen["val_out"].append(str(out.dtype))
            return F.cross_entropy(out, y)
        seen["out"].append(str(out.dtype))
        seen["x_device"].append(x.device.type)
        seen["param_dtype"].append(str(next(m.parameters()).dtype))
        return F.cross_entropy(out, y)

    loader = DataLoader(TensorDataset(X, Y), batch_size=4)
    val = DataLoader(TensorDataset(X[:4], Y[:4]), batch_size=4)
    t = Trainer(model, opt, loader, loss_fn, val_loader=val, max_epochs=1, precision=precision, device=device)
    t.fit()
    scaler = getattr(t, "scaler", None)
    return {**seen, "final_param_dtypes": sorted({str(p.dtype) for p in model.parameters()}),
            "param_device": next(model.parameters()).device.type,
            "scaler_enabled": bool(scaler is not None and scaler.is_enabled()),
            "losses": [float(r["loss"]) for r in t.history], "steps": int(t.global_step)}


def early_stop_run(ns, patience, epochs):
    """A probe callback (not the student's EarlyStopping, judged on its own) sets trainer.should_stop in
    on_validation_end once it has seen patience + 1 validations: the Trainer must stop after that epoch."""
    Trainer = get(ns, "Trainer")
    base = _callback_base(ns)

    class StopAfter(base):
        seen = 0

        def on_validation_end(self, trainer, metrics):
            self.seen += 1
            if self.seen >= patience + 1:
                trainer.should_stop = True

    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)  # frozen: validation loss never changes
    X, Y = torch.randn(8, 3), torch.randn(8, 1)
    rec = _recorder(ns)
    t = Trainer(model, opt, DataLoader(TensorDataset(X, Y), batch_size=4), _mse,
                val_loader=DataLoader(TensorDataset(X, Y), batch_size=4),
                callbacks=[StopAfter(), rec], max_epochs=epochs)
    t.fit()
    return {"epoch_ends": sum(e[0] == "on_epoch_end" for e in rec.events),
            "val_ends": sum(e[0] == "on_validation_end" for e in rec.events),
            "val_history": [float(r["val_loss"]) for r in t.val_history]}


# ------------------------------------------------------------------ resumption
class NoisyData(Dataset):
    """Features + noise from numpy AND python random; returns (x, y, index)."""

    def __init__(self, X, Y):
        self.X, self.Y = X, Y

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        noise = torch.from_numpy(np.random.standard_normal(self.X.shape[1]).astype(np.float32))
        scale = 1.0 + 0.1 * random.random()
        return self.X[i] * scale + 0.05 * noise, self.Y[i], i


def _ce(model, batch):
    x, y, _ = batch
    return F.cross_entropy(model(x), y)


def _tallies(ns):
    """Two stateful callbacks of one kind (each keeps its own running sums, in its state_dict)."""
    base = _callback_base(ns)

    class Tally(base):
        def __init__(self, weight):
            self.weight, self.batches, self.total = weight, 0, 0.0

        def on_batch_end(self, trainer, batch, batch_idx, loss):
            self.batches += 1
            self.total = self.total * 0.5 + self.weight * float(loss)

        def state_dict(self):
            return {"batches": self.batches, "total": self.total}

        def load_state_dict(self, state):
            self.batches, self.total = int(state["batches"]), float(state["total"])

    return [Tally(1.0), Tally(-3.0)]


class _Interrupt(Exception):
    """Raised by the probe's saving callback right after it wrote a checkpoint: the run is killed there."""


def _saver(ns, hook, at_step, path):
    """A callback that, at `hook` when global_step == at_step (first time), saves a checkpoint and kills the run."""
    base = _callback_base(ns)

    class Saver(base):
        done = False

    def fire(self, trainer, *args):
        if not self.done and int(trainer.global_step) == at_step:
            self.done = True
            trainer.save_checkpoint(path)
            raise _Interrupt()

    setattr(Saver, hook, fire)
    return Saver()


def _build_run(ns, cfg, max_steps, rec, extra=()):
    Trainer, make_loader = get(ns, "Trainer"), get(ns, "make_loader")
    g = torch.Generator().manual_seed(cfg["data_seed"])
    X = torch.randn(cfg["n"], 6, generator=g)
    Y = torch.randint(0, 3, (cfg["n"],), generator=g)
    torch.manual_seed(cfg["init_seed"])
    model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Dropout(0.25), nn.Linear(12, 3))
    opt = torch.optim.AdamW(model.parameters(), lr=0.03, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.85)
    scaler = None
    if cfg.get("scaler"):
        dev = cfg.get("device", "cpu")
        scaler = torch.amp.GradScaler(torch.device(dev).type, init_scale=cfg["init_scale"],
                                      growth_factor=2.0, backoff_factor=0.5, growth_interval=1)
    if cfg.get("plain_loader"):
        # no generator of its own: creating each epoch's iterator draws from the global torch generator
        S = get(ns, "ResumableRandomSampler")
        loader = DataLoader(NoisyData(X, Y), batch_size=cfg["batch_size"],
                            sampler=S(cfg["n"], seed=cfg["loader_seed"]))
    else:
        loader = make_loader(NoisyData(X, Y), cfg["batch_size"], seed=cfg["loader_seed"])
    return Trainer(model, opt, loader, _ce, scheduler=sched, scaler=scaler, callbacks=[rec, *extra],
                   max_epochs=cfg["epochs"], max_steps=max_steps, accum_steps=cfg["accum"],
                   max_grad_norm=cfg.get("max_norm"), device=cfg.get("device", "cpu"))


def _summary(t, rec, tallies=()):
    opt_state = t.optimizer.state_dict()["state"]
    opt_tensors = {f"{i}.{k}": v.detach().cpu().clone() for i, st in opt_state.items() for k, v in st.items()
                   if isinstance(v, torch.Tensor)}
    scaler = getattr(t, "scaler", None)
    sc = scaler.state_dict() if scaler is not None else {}
    return {"params": _tensor_state(t.model), "indices": list(rec.indices), "global_step": int(t.global_step),
            "lr": float(t.optimizer.param_groups[0]["lr"]),
            "sched_last_epoch": int(t.scheduler.last_epoch), "opt": opt_tensors,
            "scaler": {k: float(v) for k, v in sc.items()},
            "losses": [float(r["loss"]) for r in t.history],
            "tallies": [[int(c.batches), float(c.total)] for c in tallies]}


def disabled_scaler_into_enabled(ns, cfg, k):
    """A checkpoint from a run whose GradScaler is disabled (fp16 without a GPU: an empty scaler state),
    loaded into a Trainer with an enabled scaler (the same run resumed on a GPU node)."""
    save_state, load_state = get(ns, "trainer_state_dict"), get(ns, "trainer_load_state_dict")
    rec = _recorder(ns)
    t = _build_run(ns, cfg, k, rec)
    t.scaler = torch.amp.GradScaler("cpu", enabled=False)
    t.fit()
    ckpt = save_state(t)
    t2 = _build_run(ns, {**cfg, "scaler": True, "init_scale": 2.0 ** 8}, None, _recorder(ns))
    try:
        load_state(t2, ckpt)
    except Exception as exc:  # noqa: BLE001 (reported to the student)
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}", "ckpt_scaler": repr(ckpt.get("scaler"))[:80]}
    return {"error": None, "global_step": int(t2.global_step), "scale": float(t2.scaler.get_scale()),
            "ckpt_scaler": repr(ckpt.get("scaler"))[:80]}


class _Deterministic:
    """torch.use_deterministic_algorithms(True) for the run when cfg asks for it (the GPU check), then as before."""

    def __init__(self, cfg):
        self.on = cfg.get("deterministic", False)

    def __enter__(self):
        self.prev = torch.are_deterministic_algorithms_enabled()
        if self.on:
            torch.use_deterministic_algorithms(True)

    def __exit__(self, *exc):
        if self.on:
            torch.use_deterministic_algorithms(self.prev)


def resume_straight(ns, cfg):
    """The uninterrupted run. The judge runs it in another worker than resume_interrupted (a sandbox and
    folders of its own): nothing of this run can reach the resumed one."""
    with _Deterministic(cfg):
        _seed_all(cfg["global_seed"])
        rec = _recorder(ns)
        tallies = _tallies(ns)
        t = _build_run(ns, cfg, None, rec, tallies)
        t.fit()
        return _summary(t, rec, tallies)


def resume_interrupted(ns, cfg, k, scramble_seed):
    """A run of k steps, a checkpoint, everything dropped, rebuilt, RNGs scrambled, resumed from the file.

    k a list: the resumed run is interrupted again after each further step in it (a checkpoint, everything
    dropped, rebuilt, scrambled, resumed), so a checkpoint written by a resumed run is resumed too."""
    ks = [int(k)] if isinstance(k, int) else [int(s) for s in k]
    d = tempfile.mkdtemp(dir=".")
    try:
        with _Deterministic(cfg):
            hook = cfg.get("save_in")  # None: max_steps=k, then save_checkpoint after fit() returned
            path = os.path.join(d, "ckpt.pt")
            _seed_all(cfg["global_seed"])
            head, stops = [], []
            for i, at in enumerate(ks + [None]):
                if i:
                    _scramble_rngs(scramble_seed + 2 * (i - 1))
                rec = _recorder(ns)
                tallies = _tallies(ns)
                if hook is None:
                    t = _build_run(ns, cfg, at, rec, tallies)
                else:
                    # every run has the saving callback (same list layout); the last one's never fires
                    t = _build_run(ns, cfg, None, rec, [*tallies, _saver(ns, hook, -1 if at is None else at, path)])
                if i:
                    _scramble_rngs(scramble_seed + 2 * (i - 1) + 1)
                if at is None:
                    t.fit(ckpt_path=path)
                    resumed = _summary(t, rec, tallies)
                    resumed["indices"] = head + resumed["indices"]
                    resumed["first_steps"] = stops[0]
                    resumed["stops"] = stops
                    return resumed
                try:
                    if i:
                        t.fit(ckpt_path=path)
                    else:
                        t.fit()
                except _Interrupt:
                    pass
                if hook is None:
                    t.save_checkpoint(path)
                stops.append(int(t.global_step))
                head += list(rec.indices)
                del t, rec, tallies
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _describe(x):
    if isinstance(x, torch.Tensor):
        if x.device.type == "meta":  # no values to copy: shape and dtype stand in
            return ["tensor", "meta", torch.zeros(x.shape, dtype=x.dtype)]
        return ["tensor", x.device.type, x.detach().cpu().clone()]
    if isinstance(x, dict):
        return ["dict", {str(k): _describe(v) for k, v in x.items()}]
    if isinstance(x, list):
        return ["list", [_describe(v) for v in x]]
    if isinstance(x, tuple):
        return ["tuple", [_describe(v) for v in x]]
    return ["other", type(x).__name__, repr(x)[:100]]


_Pair = collections.namedtuple("Pair", "first second")  # a tuple subclass whose constructor takes its fields apart


def to_device_structure(ns, batch_kind, a, b, device="cpu"):
    """Trainer.to_device on a nested batch (built here: tuples and non-tensor values do not cross the adapter).
    On device="meta" every tensor that was moved shows as a meta tensor: moving is visible without a GPU."""
    Trainer = get(ns, "Trainer")
    model = nn.Linear(2, 1)
    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), DataLoader(TensorDataset(b), batch_size=2),
                _mse, device=device)
    # "meta" is a collections.defaultdict: a dict too (one cannot be rebuilt from (key, value) pairs by its type)
    batch = {"x": a, "pair": (a, b), "items": [b, 3, "text"],
             "meta": collections.defaultdict(list, {"id": 7, "mask": b > 0}), "name": "batch",
             "array": np.arange(3)}  # a NumPy array is not a tensor: left alone
    if batch_kind == "tensor":
        batch = a
    elif batch_kind == "tuple":
        batch = (a, [b, _Pair(a, None)], 5)  # the inner tuple a namedtuple: it is a tuple too
    try:
        moved = t.to_device(batch)
    except Exception as exc:  # noqa: BLE001 (reported: the batch could not be moved)
        return ["raised", f"{type(exc).__name__}: {str(exc)[:200]}"]
    out = _describe(moved)
    if batch_kind == "nested" and isinstance(moved, dict) and "array" in moved:
        out.append({"array_is_the_same_object": moved["array"] is batch["array"]})
    return out


# ------------------------------------------------ issue 39: how the judge sees "how" sentences
class _RecordingOS:
    """While active, os.fsync / os.fdatasync / os.replace / os.rename record what they do, in call order:
    ["sync", inode, size of the file at that moment] and [name, inode of src, absolute dst]."""

    NAMES = ("fsync", "fdatasync", "replace", "rename")

    def __init__(self):
        self.events = []
        self.real = {n: getattr(os, n) for n in self.NAMES if hasattr(os, n)}

    def _sync(self, name):
        real = self.real[name]

        def sync(fd):
            st = os.fstat(fd if isinstance(fd, int) else fd.fileno())
            self.events.append(["sync", int(st.st_ino), int(st.st_size)])
            return real(fd)
        return sync

    def _move(self, name):
        real = self.real[name]

        def move(src, dst, *args, **kwargs):
            try:
                ino = int(os.stat(src).st_ino)
            except (OSError, TypeError, ValueError):
                ino = None
            self.events.append([name, ino, os.path.abspath(os.fspath(dst))])
            return real(src, dst, *args, **kwargs)
        return move

    def __enter__(self):
        for n in self.real:
            setattr(os, n, self._sync(n) if n in ("fsync", "fdatasync") else self._move(n))
        return self

    def __exit__(self, *exc):
        for n, f in self.real.items():
            setattr(os, n, f)
        return False


def _file_sig(path):
    st = os.stat(path)
    return [int(st.st_ino), int(st.st_size), int(st.st_mtime_ns)]


def atomic_durability(ns, old, new):
    """Two atomic_save calls (a new file, then over it) with os.fsync/os.replace/os.rename recorded."""
    save = get(ns, "atomic_save")
    d = tempfile.mkdtemp(dir=".")
    try:
        path = os.path.abspath(os.path.join(d, "last.pt"))
        out = []
        for obj in ({"w": old}, {"w": new}):
            with _RecordingOS() as rec:
                err = capture_error(save, obj, path)
            ino, size = (_file_sig(path)[:2] if os.path.exists(path) else (None, None))
            out.append({"events": rec.events, "error": err, "ino": ino, "size": size})
        return {"path": path, "saves": out}
    finally:
        shutil.rmtree(d, ignore_errors=True)


def checkpoint_writes(ns, events, every, keep, monitor="val_loss"):
    """CheckpointCallback on a fake trainer, with renames recorded: per event, the files that appeared or changed
    and the absolute destinations of os.replace/os.rename during it."""
    CB = get(ns, "CheckpointCallback")
    d = os.path.abspath(tempfile.mkdtemp(dir="."))
    try:
        class Fake:
            def __init__(self):
                self.global_step, self.epoch, self.should_stop = 0, 0, False
                self.model = nn.Linear(2, 1)

            def state_dict(self):
                return {"global_step": self.global_step,
                        "model": {k: v.clone() for k, v in self.model.state_dict().items()}}

        fake = Fake()
        cb = CB(d, every_n_steps=every, keep_last=keep, monitor=monitor, mode="min")
        if hasattr(cb, "on_fit_start"):
            cb.on_fit_start(fake)
        report = []
        for i, (kind, v) in enumerate(events):
            before = {n: _file_sig(os.path.join(d, n)) for n in os.listdir(d)}
            with _RecordingOS() as rec:
                if kind == "step":
                    fake.global_step = int(v)
                    cb.on_batch_end(fake, None, i, 0.0)
                else:
                    cb.on_validation_end(fake, {monitor: float(v)})
            after = {n: _file_sig(os.path.join(d, n)) for n in os.listdir(d)}
            written = sorted(n for n, s in after.items() if before.get(n) != s)
            moved = sorted(os.path.basename(e[2]) for e in rec.events
                           if e[0] in ("replace", "rename") and os.path.dirname(e[2]) == d)
            report.append({"event": [kind, v], "written": written, "moved": moved})
        return report
    finally:
        shutil.rmtree(d, ignore_errors=True)


def hook_views(ns, init, X, Y, Xv, Yv, batch_size):
    """What callbacks see of the trainer at on_fit_start, on_before_optimizer_step and on_validation_end."""
    Trainer = get(ns, "Trainer")
    model = nn.Sequential(nn.Linear(X.shape[1], 6), nn.Dropout(0.5), nn.Linear(6, 1)).double()
    model.load_state_dict(init)
    model.eval()
    for p in model.parameters():
        p.grad = torch.ones_like(p)
    views = {"fit_start": [], "step": [], "step_at": [], "val": [], "step_grad_norm": [], "lr_set": []}
    kept = []  # the metrics dicts on_validation_end received, read again after fit()

    class View(_callback_base(ns)):
        def on_fit_start(self, trainer):
            views["fit_start"].append({"training": bool(trainer.model.training),
                                       "grads_none": [p.grad is None for p in trainer.model.parameters()]})

        def on_before_optimizer_step(self, trainer):
            views["step"].append(float(trainer.last_grad_norm))
            views["step_at"].append(int(trainer.global_step))
            grads = [p.grad.detach() for p in trainer.model.parameters() if p.grad is not None]
            views["step_grad_norm"].append(  # the gradients this hook sees (the judge's own norm)
                float(torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads])))
                if grads else 0.0)
            lr = 0.01 * (len(views["lr_set"]) + 2)  # a manual schedule set here, as a warm-up callback does
            trainer.optimizer.param_groups[0]["lr"] = lr
            views["lr_set"].append(lr)

        def on_validation_end(self, trainer, metrics):
            kept.append(metrics)
            vh = list(trainer.val_history)
            views["val"].append({"training": bool(trainer.model.training),
                                 "metrics_is_attr": metrics is trainer.metrics,
                                 "metrics_arg": {str(k): float(v) for k, v in metrics.items()},
                                 "metrics_attr": {str(k): float(v) for k, v in (trainer.metrics or {}).items()},
                                 "val_history_len": len(vh),
                                 "val_history_last": ({str(k): float(v) for k, v in vh[-1].items()} if vh else None)})

    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.05), DataLoader(TensorDataset(X, Y),
                batch_size=batch_size), _mse, val_loader=DataLoader(TensorDataset(Xv, Yv), batch_size=2),
                callbacks=[View()], max_epochs=2, max_grad_norm=0.5)
    _fit_with_torch_clipping(ns, t)
    return {"views": views, "grad_norms": [float(r["grad_norm"]) for r in t.history],
            "logged_steps": [int(r["step"]) for r in t.history],
            "logged_lrs": [float(r["lr"]) for r in t.history],
            "kept_after_fit": [{str(k): float(v) for k, v in m.items()} if isinstance(m, dict) else repr(m)[:80]
                               for m in kept]}


def backward_autocast_run(ns, precision):
    """Whether autocast is on while backward runs (a gradient hook on the forward's output records it)."""
    Trainer = get(ns, "Trainer")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    seen = []

    def loss_fn(m, batch):
        x, y = batch
        out = m(x)
        if out.requires_grad:
            out.register_hook(lambda g: seen.append(bool(torch.is_autocast_enabled("cpu"))))
        return F.mse_loss(out.float(), y)

    X, Y = torch.randn(8, 4), torch.randn(8, 2)
    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1), DataLoader(TensorDataset(X, Y), batch_size=4),
                loss_fn, precision=precision, max_epochs=1, device="cpu")
    t.fit()
    return {"autocast_in_backward": seen}


def iterator_epochs_run(ns, n, batch_size, epochs):
    """A loader (a DataLoader subclass) that records its sampler's epoch each time an iterator is created."""
    Trainer = get(ns, "Trainer")

    class EpochSampler(torch.utils.data.Sampler):
        def __init__(self, n):
            self.n, self.epoch = n, 0

        def set_epoch(self, epoch):
            self.epoch = int(epoch)

        def state_dict(self):
            return {"epoch": self.epoch}

        def load_state_dict(self, state):
            self.epoch = int(state["epoch"])

        def __len__(self):
            return self.n

        def __iter__(self):
            return iter(torch.randperm(self.n, generator=torch.Generator().manual_seed(7 + self.epoch)).tolist())

    log = []

    class RecordingLoader(DataLoader):
        def __iter__(self):
            log.append(int(self.sampler.epoch))
            return super().__iter__()

    model = nn.Linear(3, 1)
    X, Y = torch.randn(n, 3), torch.randn(n, 1)
    loader = RecordingLoader(TensorDataset(X, Y), batch_size=batch_size, sampler=EpochSampler(n),
                             generator=torch.Generator())
    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.0), loader, _mse, max_epochs=epochs)
    t.fit()
    return {"epochs_at_iter": log}


def pending_rng_run(ns, seed, n, batch_size, epochs):
    """A Trainer whose _pending_rng is a snapshot taken after torch.manual_seed(seed): the torch draws of its
    loss_fn, one per batch over every epoch."""
    Trainer, capture = get(ns, "Trainer"), get(ns, "capture_rng_state")
    model = nn.Linear(3, 1)
    X, Y = torch.randn(n, 3), torch.randn(n, 1)
    draws = []

    def loss_fn(m, batch):
        draws.append(float(torch.rand((), dtype=torch.float64)))
        return _mse(m, batch)

    t = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.0),
                DataLoader(TensorDataset(X, Y), batch_size=batch_size, generator=torch.Generator()), loss_fn,
                max_epochs=epochs)
    _seed_all(seed)
    t._pending_rng = capture()
    _scramble_rngs(seed + 1)
    t.fit()
    return {"draws": draws, "pending_after": None if t._pending_rng is None else type(t._pending_rng).__name__}


def state_dict_keys_run(ns):
    """trainer_state_dict of a Trainer without scheduler or scaler, over a loader whose sampler has no state."""
    save_state, load_state, Trainer = get(ns, "trainer_state_dict"), get(ns, "trainer_load_state_dict"), get(ns, "Trainer")

    def build():
        torch.manual_seed(0)
        model = nn.Linear(3, 1)
        X, Y = torch.randn(8, 3), torch.randn(8, 1)
        return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1),
                       DataLoader(TensorDataset(X, Y), batch_size=4), _mse, max_epochs=1)

    t = build()
    t.fit()
    ckpt = save_state(t)
    keys = {k: ("missing" if k not in ckpt else "None" if ckpt[k] is None else type(ckpt[k]).__name__)
            for k in ("model", "optimizer", "scheduler", "scaler", "global_step", "epoch", "batch_in_epoch",
                      "rng", "sampler", "callbacks", "history")}
    err = capture_error(load_state, build(), ckpt)
    return {"keys": keys, "load_error": err}


class _OtherStatefulSampler(torch.utils.data.Sampler):
    """A stateful sampler that is not a ResumableRandomSampler (sequential; state: where the next pass starts)."""

    def __init__(self, n):
        self.n, self.start = n, 0

    def __len__(self):
        return self.n

    def state_dict(self):
        return {"start": int(self.start)}

    def load_state_dict(self, state):
        self.start = int(state["start"])

    def __iter__(self):
        start, self.start = self.start, 0
        return iter(range(start, self.n))


def other_sampler_state_run(ns, n, batch_size, start):
    """trainer_state_dict of a Trainer whose loader's sampler is _OtherStatefulSampler at `start`, then
    trainer_load_state_dict of it into a Trainer built the same way (its sampler at 0)."""
    save_state, load_state, Trainer = get(ns, "trainer_state_dict"), get(ns, "trainer_load_state_dict"), get(ns, "Trainer")

    def build():
        torch.manual_seed(0)
        model = nn.Linear(3, 1)
        X, Y = torch.randn(n, 3), torch.randn(n, 1)
        sampler = _OtherStatefulSampler(n)
        return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1),
                       DataLoader(TensorDataset(X, Y), batch_size=batch_size, sampler=sampler), _mse,
                       max_epochs=1), sampler

    t, sampler = build()
    sampler.start = start
    ckpt = save_state(t)
    saved = ckpt.get("sampler", "missing") if isinstance(ckpt, dict) else "missing"
    t2, sampler2 = build()
    err = capture_error(load_state, t2, ckpt)
    return {"saved": saved if saved is None or isinstance(saved, (dict, str)) else repr(saved)[:80],
            "restored_start": int(sampler2.start), "load_error": err}


def load_restores_rng_run(ns, cfg, seed):
    """trainer_state_dict right after seeding every generator with `seed`; generators scrambled; then the
    draws right after trainer_load_state_dict, and after restoring trainer._pending_rng (also scrambled)."""
    save_state, load_state = get(ns, "trainer_state_dict"), get(ns, "trainer_load_state_dict")
    restore = get(ns, "restore_rng_state")
    t = _build_run(ns, cfg, 2, _recorder(ns))
    t.fit()
    t2 = _build_run(ns, cfg, None, _recorder(ns))
    _seed_all(seed)
    ckpt = save_state(t)
    _scramble_rngs(seed + 1)
    load_state(t2, ckpt)
    at_load = _draws()
    pending = getattr(t2, "_pending_rng", None)
    from_pending = None
    if pending is not None:
        _scramble_rngs(seed + 2)
        restore(pending)
        from_pending = _draws()
    return {"at_load": at_load, "from_pending": from_pending}


def sampler_other_process(ns, n, seed, epochs):
    """The epoch orders here, and again with hash() salted for str and bytes as in another Python process
    (whose PYTHONHASHSEED differs): a pure function of (seed, epoch) gives the same orders."""
    import builtins
    S = get(ns, "ResumableRandomSampler")

    def orders():
        s = S(n, seed=seed)
        out = []
        for e in range(epochs):
            s.set_epoch(e)
            out.append([int(i) for i in s])
        return out

    here = orders()
    real = builtins.hash

    def salted(x):
        if isinstance(x, (str, bytes)):
            return real(("another process", x))
        if isinstance(x, tuple):
            return real(tuple(salted(v) for v in x))
        if isinstance(x, frozenset):
            return real(frozenset(salted(v) for v in x))
        return real(x)

    builtins.hash = salted
    try:
        there = orders()
    finally:
        builtins.hash = real
    return {"here": here, "there": there}


def sampler_state_types(ns, n, seed, epoch, taken):
    """The leaves of sampler.state_dict() that are not plain data, as 'path: type'."""
    S = get(ns, "ResumableRandomSampler")
    s = S(n, seed=seed)
    s.set_epoch(epoch)
    it = iter(s)
    for _ in range(taken):
        next(it)
    sd = s.state_dict()
    bad = []

    def walk(x, path):
        if x is None or isinstance(x, (bool, int, float, str)):
            return
        if isinstance(x, (list, tuple)):
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")
            return
        if isinstance(x, dict):
            for k, v in x.items():
                if not isinstance(k, (str, int)):
                    bad.append(f"{path} key {type(k).__name__}")
                walk(v, f"{path}[{k!r}]")
            return
        bad.append(f"{path}: {type(x).__module__}.{type(x).__name__}")

    walk(sd, "state_dict()")
    return {"bad": bad, "kind": type(sd).__name__}


# ------------------------------------------------------------------ round 24
def clip_torch_calls(ns, grads, max_norm):
    """clip_grad_norm with torch.nn.utils.clip_grad_norm_ (and its alias clip_grad_norm) recording its calls,
    also where the notebook bound it to a name of its own; the calls counted and the returned norm."""
    import torch.nn.utils as utils
    import torch.nn.utils.clip_grad as clip_mod
    forbidden = [f for f in (getattr(utils, "clip_grad_norm_", None), getattr(utils, "clip_grad_norm", None))
                 if f is not None]
    calls = []

    def recording(f):
        def recorded(*args, **kwargs):
            calls.append(f.__name__)
            return f(*args, **kwargs)
        return recorded

    places = [(vars(m), name) for m in (utils, clip_mod) for name in ("clip_grad_norm_", "clip_grad_norm")]
    places += [(ns, name) for name, v in list(ns.items()) if any(v is f for f in forbidden)]
    saved = [(d, name, d[name]) for d, name in places if name in d]
    try:
        for d, name, f in saved:
            d[name] = recording(f)
        out = clip(ns, grads, max_norm, as_list=True)
    finally:
        for d, name, f in saved:
            d[name] = f
    return {"calls": calls, "norm": out["norm"]}


def sampler_permutations(ns, n, seed, epochs, at_epoch):
    """permutation(e) asked of a sampler sitting at epoch ``at_epoch`` (never iterated), and what a sampler
    yields after set_epoch(e), for each e; then what the asked sampler yields (``after``) and the order of
    epoch ``at_epoch`` (``at_order``, from a fresh sampler)."""
    S = get(ns, "ResumableRandomSampler")
    asked = S(n, seed=seed)
    asked.set_epoch(at_epoch)
    perms = [[int(i) for i in asked.permutation(e)] for e in epochs]
    after = [int(i) for i in asked]  # asking for orders must leave the sampler at epoch at_epoch
    yielded = []
    for e in epochs:
        s = S(n, seed=seed)
        s.set_epoch(e)
        yielded.append([int(i) for i in s])
    s = S(n, seed=seed)
    s.set_epoch(at_epoch)
    return {"perms": perms, "yielded": yielded, "after": after, "at_order": [int(i) for i in s]}


def load_twice_run(ns, steps, more):
    """A trainer trained `steps` steps; its trainer_state_dict loaded into two fresh trainers, each trained
    `more` steps further: the checkpoint's history length before and after, and each trainer's history steps."""
    save_state, load_state, Trainer = get(ns, "trainer_state_dict"), get(ns, "trainer_load_state_dict"), get(ns, "Trainer")

    def build(max_steps):
        torch.manual_seed(0)
        model = nn.Linear(3, 1)
        X, Y = torch.randn(16, 3), torch.randn(16, 1)
        return Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1),
                       DataLoader(TensorDataset(X, Y), batch_size=2), _mse, max_epochs=1, max_steps=max_steps)

    t = build(steps).fit()
    ckpt = save_state(t)
    before = len(ckpt.get("history") or [])
    runs = []
    for _ in range(2):
        u = build(steps + more)
        load_state(u, ckpt)
        u.fit()
        runs.append([int(r["step"]) for r in u.history])
    return {"before": before, "after": len(ckpt.get("history") or []), "histories": runs}


def tensor_lr_run(ns, lr, gamma, steps):
    """AdamW with a tensor learning rate (ExponentialLR updates it in place): the logged lr per step, read
    after fit() returned; then 2 steps of SGD with an int learning rate, 0: the type and repr of each row's lr."""
    Trainer = get(ns, "Trainer")
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = torch.optim.AdamW(model.parameters(), lr=torch.tensor(lr), foreach=False)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=gamma)
    X, Y = torch.randn(2 * steps, 3), torch.randn(2 * steps, 1)
    t = Trainer(model, opt, DataLoader(TensorDataset(X, Y), batch_size=2), _mse, scheduler=sched, max_epochs=1)
    t.fit()
    # and an int learning rate (SGD(lr=0)): what type the rows log
    t2 = Trainer(model, torch.optim.SGD(model.parameters(), lr=0), DataLoader(TensorDataset(X[:4], Y[:4]),
                 batch_size=2), _mse, max_epochs=1)
    t2.fit()
    return {"lrs": [float(r["lr"]) for r in t.history],
            "int_lr_rows": [[type(r.get("lr")).__name__, repr(r.get("lr"))] for r in t2.history]}


def precision_cuda_visible(ns, precision, seed=0):
    """precision_run on the CPU while torch.cuda.is_available() answers True (as on a GPU node whose run was
    put on the CPU). What the run raised, if anything."""
    import warnings
    from unittest import mock
    with warnings.catch_warnings(), mock.patch.object(torch.cuda, "is_available", lambda: True):
        warnings.simplefilter("ignore")
        try:
            return precision_run(ns, precision, "cpu", seed=seed)
        except Exception as exc:  # noqa: BLE001 (reported: an autocast meant for CUDA raises here)
            return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}


def resume_after_fit_run(ns, n, batch_size, epochs):
    """fit() to the end (with validation), then a fresh trainer whose load_checkpoint (a stand-in: the checkpoint
    format is the resume task's) restores the epoch, batch_in_epoch and global_step the first one ended with, as
    a checkpoint written after fit() returned holds them: the resumed fit()'s hooks, steps and validations."""
    Trainer = get(ns, "Trainer")

    def parts():
        torch.manual_seed(0)
        model = nn.Linear(3, 1)
        g = torch.Generator().manual_seed(1)
        X, Y = torch.randn(n, 3, generator=g), torch.randn(n, 1, generator=g)
        return (model, torch.optim.SGD(model.parameters(), lr=0.01),
                DataLoader(TensorDataset(X, Y), batch_size=batch_size), _mse)

    val = DataLoader(TensorDataset(torch.randn(4, 3), torch.randn(4, 1)), batch_size=2)
    t = Trainer(*parts(), val_loader=val, callbacks=[_recorder(ns)], max_epochs=epochs)
    t.fit()
    ended = (int(t.epoch), int(t.batch_in_epoch), int(t.global_step))
    rec = _recorder(ns)

    class ProbeTrainer(Trainer):
        def load_checkpoint(self, p):
            self.epoch, self.batch_in_epoch, self.global_step = ended

    u = ProbeTrainer(*parts(), val_loader=val, callbacks=[rec], max_epochs=epochs)
    u.fit("after-fit.pt")
    return {"events": rec.events, "ended": list(ended), "steps_after": int(u.global_step),
            "val_history": len(u.val_history)}


# ------------------------------------------------------------------ round 28
def sampler_state_snapshot(ns, n, seed, epoch, cut1, cut2):
    """state_dict() taken after cut1 indices, kept in memory while cut2 more are drawn and state_dict() is called
    again: the first dict as it was when taken and as it is now, and what a sampler loaded from it yields."""
    import copy as _copy
    S = get(ns, "ResumableRandomSampler")
    s = S(n, seed=seed)
    s.set_epoch(epoch)
    it = iter(s)
    for _ in range(cut1):
        next(it)
    sd1 = s.state_dict()
    then = _copy.deepcopy(sd1)
    for _ in range(cut2):
        next(it)
    sd2 = s.state_dict()
    now = _copy.deepcopy(sd1)
    t = S(n, seed=seed)
    t.load_state_dict(sd1)
    t.set_epoch(epoch)
    full = S(n, seed=seed)
    full.set_epoch(epoch)
    plain = lambda d: repr(d)[:300]
    return {"then": plain(then), "now": plain(now), "changed": then != now, "same_object": sd1 is sd2,
            "resumed": [int(i) for i in t], "full": [int(i) for i in full]}


def early_stopping_improved(ns, mode, first, better, worse):
    """improved() asked twice before any validation, then on_validation_end(first), then improved() asked twice on
    a better and a worse value: the answers, and (best, wait) after each stage."""
    ES = get(ns, "EarlyStopping")
    cb = ES(monitor="score", patience=5, min_delta=0.0, mode=mode)
    fake = types.SimpleNamespace(should_stop=False, epoch=0, global_step=0)
    state = lambda: [None if cb.best is None else float(cb.best), int(cb.wait)]
    out = {"fresh": [bool(cb.improved(first)), bool(cb.improved(first))], "fresh_state": state()}
    cb.on_validation_end(fake, {"score": float(first)})
    out["after_first"] = state()
    out["asked"] = [bool(cb.improved(better)), bool(cb.improved(better)), bool(cb.improved(worse))]
    out["asked_state"] = state()
    return out
