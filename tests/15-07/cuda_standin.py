"""A CUDA stand-in for the GPU-marked checks of 15-07, so that their probes and judge logic run on CPU.

No GPU is available to CI. Each GPU-marked check has a CPU variant that runs the same probe (or the same
replay script) with this stand-in installed: ``torch.cuda.is_available``/``synchronize``/``Event``/
``current_stream``/``memory_stats``/``memory_snapshot``/``empty_cache`` and the ``device="cuda"`` forms of
``torch.empty``/``torch.randn``/``torch.Generator`` are replaced, for the duration of a ``with install(...)``
block, by fakes:

* memory: ``torch.empty(n, dtype=torch.uint8, device="cuda")`` returns a ``FakeCudaTensor`` whose life is
  reported to a *backend*. ``ModelBackend`` (judge side only) feeds a model of the caching allocator
  (``allocator_reference.RefAllocator``) and answers ``memory_stats``/``memory_snapshot`` from it.
  ``ScriptBackend`` (the one a probe uses inside the student's process, where no allocator model may be
  sent: a submission could call it) logs the allocations and frees and answers with a snapshot and
  statistics the judge computed beforehand from the same model; the judge checks the log.
* random numbers: the CUDA default generator is a (seed, offset) pair; ``torch.randn(..., device="cuda")``
  without a generator advances its offset by the number of values drawn, and ``torch.cuda.get_rng_state``/
  ``set_rng_state``/``manual_seed``/``manual_seed_all``/``initial_seed`` (what ``torch.random.fork_rng`` uses)
  read and write it, so a probe can see whether code saves, restores or reseeds the GPU's random state.
* time: one fake default stream; ``torch.cuda.Stream()`` makes another, idle one, and
  ``with torch.cuda.stream(s)`` makes ``s`` the current stream for the block (``default_stream()`` stays the
  first one). ``a @ b`` on fake tensors queues ``kernel_ms`` of work on the current stream and returns at
  once, as a kernel launch does; the work "runs" on the real clock (``time.perf_counter``).
  ``torch.cuda.synchronize`` sleeps until the work queued on every stream is done, ``Stream.synchronize`` and
  ``Event.synchronize`` until their own; an event's timestamp is when the stream it is recorded on (the
  current one unless given) reaches it, so ``elapsed_time`` measures the queued work, and a wall clock read
  without synchronizing measures only the launches.
* ``torch.cuda.empty_cache()`` is logged by the backend (a probe can report whether code called it).

What only a real GPU can confirm: that the live allocator follows the derived rules (the fixture traces),
the exact keys and block states of a real ``memory_snapshot()``, and the relation of event timing to a
real kernel. The GPU-marked checks keep doing that on a GPU node.

This file is sent to the student's process as source text (the probe executes it); it holds no answer.
"""
from __future__ import annotations

import contextlib
import time
import weakref

import torch

_REAL = {}


def _is_cuda(device) -> bool:
    if device is None:
        return False
    try:
        return torch.device(device).type == "cuda"
    except (RuntimeError, TypeError):
        return False


class FakeStream:
    """One in-order queue of work on the real clock."""

    def __init__(self):
        self.busy_until = time.perf_counter()
        self.launches = 0
        if _STATE.get("streams") is not None:
            _STATE["streams"].append(self)

    def enqueue(self, ms: float) -> None:
        now = time.perf_counter()
        self.busy_until = max(now, self.busy_until) + ms / 1000.0
        self.launches += 1

    def reached(self) -> float:
        """The moment the stream reaches work queued now."""
        return max(time.perf_counter(), self.busy_until)

    def synchronize(self) -> None:
        delay = self.busy_until - time.perf_counter()
        if delay > 0:
            time.sleep(delay)

    def query(self) -> bool:
        return time.perf_counter() >= self.busy_until

    def wait_stream(self, other) -> None:
        self.busy_until = max(self.busy_until, getattr(other, "busy_until", 0.0))

    def wait_event(self, event) -> None:
        if event.t is not None:
            self.busy_until = max(self.busy_until, event.t)


class FakeEvent:
    """torch.cuda.Event on the fake stream."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False):
        self.enable_timing = enable_timing
        self.t = None

    def record(self, stream=None) -> None:
        self.t = (stream or _STATE["stream"]).reached()

    def synchronize(self) -> None:
        if self.t is None:
            return
        delay = self.t - time.perf_counter()
        if delay > 0:
            time.sleep(delay)

    def wait(self, stream=None) -> None:
        (stream or _STATE["stream"]).wait_event(self)

    def query(self) -> bool:
        return self.t is None or time.perf_counter() >= self.t

    def elapsed_time(self, end) -> float:
        if not (self.enable_timing and end.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if self.t is None or end.t is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        if time.perf_counter() < end.t:
            raise RuntimeError("CUDA error: device not ready")
        return (end.t - self.t) * 1000.0


class FakeCudaTensor:
    """Just enough of a CUDA tensor for the probes: a shape, a size in bytes, and queued matmuls."""

    def __init__(self, shape, nbytes: int, dtype=torch.float32):
        self.shape = torch.Size(shape)
        self.nbytes = int(nbytes)
        self.dtype = dtype
        self.device = torch.device("cuda", 0)
        self.is_cuda = True

    def numel(self) -> int:
        return self.shape.numel()

    def __matmul__(self, other):
        _STATE["stream"].enqueue(_STATE["kernel_ms"])
        return FakeCudaTensor((self.shape[0], other.shape[-1]), 0, self.dtype)

    def __repr__(self):
        return f"FakeCudaTensor(shape={tuple(self.shape)}, nbytes={self.nbytes})"


class ScriptBackend:
    """Logs allocations and frees; memory_snapshot/memory_stats return what the judge computed for them."""

    def __init__(self, snapshot=None, stats=None):
        self.snapshot, self.stats_ = snapshot or [], stats or {}
        self.log, self.count = [], 0

    def malloc(self, nbytes: int):
        name = f"t{self.count}"
        self.count += 1
        self.log.append(("alloc", name, int(nbytes)))
        return name

    def free(self, name) -> None:
        self.log.append(("free", name))

    def empty_cache(self) -> None:
        self.log.append(("empty_cache",))

    def memory_stats(self) -> dict:
        return dict(self.stats_)

    def memory_snapshot(self) -> list:
        return [dict(s, blocks=[dict(b) for b in s["blocks"]]) for s in self.snapshot]


class ModelBackend(ScriptBackend):
    """Judge side: a model of the caching allocator answers memory_stats and memory_snapshot."""

    KEYS = {"allocated": "allocated_bytes.all.current", "reserved": "reserved_bytes.all.current",
            "small_segments": "segment.small_pool.current", "large_segments": "segment.large_pool.current"}

    def __init__(self, model, snapshot_of):
        super().__init__()
        self.model, self.snapshot_of = model, snapshot_of

    def malloc(self, nbytes: int):
        name = super().malloc(nbytes)
        self.model.malloc(name, int(nbytes))
        return name

    def free(self, name) -> None:
        super().free(name)
        self.model.free(name)

    def empty_cache(self) -> None:
        super().empty_cache()
        self.model.empty_cache()

    def memory_stats(self) -> dict:
        return {self.KEYS[k]: v for k, v in self.model.stats().items()}

    def memory_snapshot(self) -> list:
        return self.snapshot_of(self.model)


_STATE = {"stream": None, "default": None, "streams": None, "backend": None, "kernel_ms": 0.0, "rng": [0, 0]}


def _cuda_tensor(nbytes: int, shape, dtype):
    t = FakeCudaTensor(shape, nbytes, dtype)
    backend = _STATE["backend"]
    if backend is not None and nbytes > 0:
        weakref.finalize(t, backend.free, backend.malloc(nbytes))
    return t


def _numel(size) -> int:
    n = 1
    for s in size:
        n *= int(s)
    return n


def _shape(size):
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)) else tuple(size)


def _empty(*size, device=None, dtype=None, **kw):
    if not _is_cuda(device):
        return _REAL["empty"](*size, device=device, dtype=dtype, **kw)
    shape, dtype = _shape(size), dtype or torch.get_default_dtype()
    return _cuda_tensor(_numel(shape) * torch.empty((), dtype=dtype).element_size(), shape, dtype)


def _randn(*size, device=None, dtype=None, generator=None, **kw):
    if not (_is_cuda(device) or isinstance(generator, _FakeGenerator)):
        return _REAL["randn"](*size, device=device, dtype=dtype, generator=generator, **kw)
    shape, dtype = _shape(size), dtype or torch.get_default_dtype()
    if generator is None:  # the default CUDA generator: its offset moves on by the values drawn
        _STATE["rng"][1] += _numel(shape)
    return _cuda_tensor(_numel(shape) * torch.empty((), dtype=dtype).element_size(), shape, dtype)


def _get_rng_state(device="cuda"):
    """The default CUDA generator's state as a uint8 tensor (a real one is a ByteTensor too)."""
    return _REAL["tensor"](list(_STATE["rng"]), dtype=torch.int64).view(torch.uint8)


def _set_rng_state(new_state, device="cuda") -> None:
    _STATE["rng"] = [int(v) for v in new_state.view(torch.int64).tolist()]


def _manual_seed(seed) -> None:
    _STATE["rng"] = [int(seed), 0]


class _FakeGenerator:
    def __init__(self, device=None):
        self.device = torch.device("cuda", 0)
        self.seed = 0

    def manual_seed(self, seed):
        self.seed = int(seed)
        return self


def _generator(device="cpu"):
    return _FakeGenerator(device) if _is_cuda(device) else _REAL["Generator"](device=device)


def _synchronize(device=None) -> None:
    """Device-wide: waits for the work queued on every stream."""
    for stream in _STATE["streams"] or [_STATE["stream"]]:
        stream.synchronize()


@contextlib.contextmanager
def _stream_scope(stream):
    """torch.cuda.stream(s): s is the current stream inside the block (None: no change)."""
    previous = _STATE["stream"]
    if stream is not None:
        _STATE["stream"] = stream
    try:
        yield stream
    finally:
        _STATE["stream"] = previous


class _DeviceScope:
    """torch.cuda.device(d): selects the one stand-in device, so it changes nothing."""

    def __init__(self, device=None):
        self.device = device

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@contextlib.contextmanager
def install(backend=None, kernel_ms: float = 0.0):
    """Replace the CUDA entry points the 15-07 probes and replay script use; restore them on exit."""
    cuda = torch.cuda
    patches = {
        (cuda, "is_available"): lambda: True,
        (cuda, "init"): lambda: None,
        (cuda, "synchronize"): _synchronize,
        (cuda, "Event"): FakeEvent,
        (cuda, "current_stream"): lambda device=None: _STATE["stream"],
        (cuda, "default_stream"): lambda device=None: _STATE["default"],
        (cuda, "Stream"): lambda device=None, priority=0, **kwargs: FakeStream(),  # another stream, idle: the
        # work fn queues goes to the current stream, so events recorded on this one do not wait for it
        (cuda, "stream"): _stream_scope,
        (cuda, "set_stream"): lambda stream: _STATE.update(stream=stream),
        (cuda, "device_count"): lambda: 1,
        (cuda, "device"): _DeviceScope,
        (cuda, "current_device"): lambda: 0,
        (cuda, "set_device"): lambda device: None,
        (cuda, "get_device_name"): lambda device=None: "CUDA stand-in (tests/15-07/cuda_standin.py)",
        (cuda, "memory_stats"): lambda device=None: _STATE["backend"].memory_stats(),
        (cuda, "memory_snapshot"): lambda *a, **k: _STATE["backend"].memory_snapshot(),
        (cuda, "empty_cache"): lambda: _STATE["backend"].empty_cache(),
        (torch, "empty"): _empty,
        (torch, "randn"): _randn,
        (torch, "Generator"): _generator,
        (cuda, "get_rng_state"): _get_rng_state,
        (cuda, "set_rng_state"): _set_rng_state,
        (cuda, "get_rng_state_all"): lambda: [_get_rng_state()],
        (cuda, "set_rng_state_all"): lambda states: _set_rng_state(list(states)[0]),
        (cuda, "manual_seed"): _manual_seed,
        (cuda, "manual_seed_all"): _manual_seed,
        (cuda, "initial_seed"): lambda: _STATE["rng"][0],
    }
    saved = {key: getattr(*key) for key in patches}
    _REAL.update(empty=saved[(torch, "empty")], randn=saved[(torch, "randn")],
                 Generator=saved[(torch, "Generator")], tensor=torch.tensor)
    previous = dict(_STATE)
    _STATE.update(streams=[])
    default = FakeStream()
    _STATE.update(stream=default, default=default, backend=backend if backend is not None else ScriptBackend(),
                  kernel_ms=float(kernel_ms), rng=[0, 0])
    try:
        for (obj, name), fake in patches.items():
            setattr(obj, name, fake)
        yield _STATE
    finally:
        for (obj, name), real in saved.items():
            setattr(obj, name, real)
        _STATE.update(previous)
