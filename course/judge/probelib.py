"""Building blocks for probes (run next to the submission, return plain data).

Probes live in ``tests/<assignment>/probes.py`` and may ``from course.judge.probelib import ...``.
A probe receives the submission's namespace ``ns`` and plain-data arguments,
and returns tensors, numbers, strings, lists or dicts: never student objects.
"""
from __future__ import annotations

import io
import sys
import os
import select
import signal
import struct
import time

import torch

from .pristine import run_fresh  # noqa: F401  (for probes: a fresh interpreter, cheaply)


class Missing(NameError):
    pass


def get(ns: dict, name: str):
    """The submission's object called ``name``, or a clear NameError."""
    if name not in ns:
        raise Missing(f"'{name}' is not defined in your notebook (did you run/keep the cell that defines it?)")
    return ns[name]


def capture_error(fn, *args, **kwargs) -> dict:
    """Call fn and describe whether and how it raised (for 'this must fail' checks)."""
    try:
        fn(*args, **kwargs)
    except Exception as exc:
        return {"raised": True, "type": type(exc).__name__, "message": str(exc)[:500],
                "mro": [c.__name__ for c in type(exc).__mro__]}
    return {"raised": False, "type": "", "message": "", "mro": []}


def plain_default(v) -> dict:
    """A parameter's default as plain data (course.judge.generic.signatures compares it with the skeleton's)."""
    if v is None or type(v) in (bool, int, float, str):
        return {"value": v if type(v) is not str else v[:200]}
    if isinstance(v, torch.dtype):
        return {"dtype": str(v)}
    if type(v) in (tuple, list):
        return {"seq": [plain_default(x) for x in v[:32]]}
    return {"text": type(v).__name__}


def _params_of(obj) -> dict:
    import inspect
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError) as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return {"text": str(sig)[:300],
            "params": [{"name": p.name, "kind": int(p.kind),
                        "default": None if p.default is p.empty else plain_default(p.default)}
                       for p in list(sig.parameters.values())[:200]]}


def signatures_of(ns: dict, names: dict) -> dict:
    """The signatures of the submission's functions and classes named by the skeleton (tests/<id>/test_signatures.py):
    {name: {"params": [...]} for a function, {"methods": {method: {"params": [...]}}} for a class}."""
    out = {}
    for name, methods in names.items():
        if name not in ns:
            out[name] = {"missing": True}
            continue
        obj = ns[name]
        try:
            if methods is None:
                out[name] = _params_of(obj)
            elif not isinstance(obj, type):
                out[name] = {"error": f"'{name}' is a {type(obj).__name__}, not a class"}
            else:
                found = {}
                for m in methods:
                    raw = next((k.__dict__[m] for k in obj.__mro__ if m in k.__dict__), None)
                    if raw is None:
                        found[m] = {"missing": True}
                    elif isinstance(raw, (staticmethod, classmethod)):
                        found[m] = _params_of(getattr(obj, m))
                    else:
                        found[m] = _params_of(raw)
                out[name] = {"methods": found}
        except Exception as exc:  # a submission's own descriptor or __signature__ that raises
            out[name] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return out


def needs_values(exc: BaseException) -> bool:
    """An op the meta device cannot run because it reads values or its output's shape depends on them (boolean
    masks, nonzero, masked_select, unique; .item(), bool(), float() and .numpy() of a meta tensor): the code may
    be right on a GPU. A tensor on the wrong device is not one of them."""
    text = str(exc)
    return (isinstance(exc, NotImplementedError) or "data-dependent" in text or "no data" in text
            or "cannot be called on meta tensors" in text or "meta device type tensor to numpy" in text)


def off_default_device(fn, tensors, **kwargs):
    """fn(*tensors, **kwargs) with the inputs off the default device (``stand_in_device``): a tensor made without
    device= then sits elsewhere than the inputs, and mixing the two raises, as on a GPU. Returns (result, home):
    home is the inputs' device type; the caller reads devices with ``relative_device``."""
    return stand_in_device(lambda device: fn(*(t.to(device) if device == "meta" else t.clone() for t in tensors),
                                             **kwargs))


def functions_entered(run, source_files):
    """run() while a profile hook records every Python function entered whose code lives in one of
    ``source_files`` (path endings such as "torch/nn/utils/clip_grad.py"): a library's own implementation reached
    under any name, however it was imported ("write it yourself"), on the calling thread and on Python threads the
    call starts. The hook switched off during the call (``sys.setprofile``, ``threading.setprofile``) is named among
    them. Returns (run's result, sorted function names)."""
    import sys
    import threading
    seen = set()
    ends = tuple(f.replace("/", os.sep) for f in source_files)
    switched = []  # red team 21: the hook switched off around the library's call (15-09 gradcheck 28/28)
    setprofile = sys.setprofile

    def hook(frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename.endswith(ends):
                seen.add(getattr(code, "co_qualname", code.co_name))
            elif code.co_name.startswith("setprofile") and code.co_filename.endswith("threading.py"):
                switched.append("threading.setprofile")
        elif event == "c_call" and arg is setprofile:
            switched.append("sys.setprofile")

    # red team 22: a thread the submission started earlier (a queue's server, made when its cell ran) has neither
    # hook; the worker's recorder tells whether one ran during the call (as it does in a probe's window)
    worker = sys.modules.get("course.judge.worker")
    rec = worker._WATCHER[0] if worker is not None else None
    others = rec.others_ran() if rec is not None else {}
    made = rec.created() if rec is not None else None  # red team 23: a thread born and gone inside the call
    old, old_threads = sys.getprofile(), threading.getprofile()
    threading.setprofile(hook)  # a Python thread started by the call is watched too
    sys.setprofile(hook)
    try:
        out = run()
    finally:
        off = switched[:1] or (["sys.setprofile"] if sys.getprofile() is not hook else [])  # before our own calls
        sys.setprofile(old)
        threading.setprofile(old_threads)
    if off:
        seen.add(f"<none seen: the check's profile hook was switched off during the call ({off[0]})>")
    born = rec.created_since(made) if made is not None else 0
    if born > 0:
        seen.add(f"<none seen: {born} thread(s) or process(es) made during the call other than through threading "
                 "(_thread.start_new_thread, ctypes' pthread_create, a fork), out of the check's profile hook>")
    woke = rec.woke(others) if others else []
    if woke:
        kinds = " and ".join(f"{n} {w}" for n, w in ((sum(k[0] == "t" for k in woke), "thread(s)"),
                                                      (sum(k[0] == "p" for k in woke), "process(es)")) if n)
        seen.add(f"<none seen: {kinds} the submission started earlier ran during the call, out of the check's "
                 "profile hook>")
    return out, sorted(seen)


def stand_in_device(run):
    """run(device), the grader's stand-in for a GPU: run builds its inputs (tensors, modules, parameters) on
    ``device`` and calls the submission. First on the meta device (the default stays the CPU). Meta tensors hold
    no values, so where the code needs them (a boolean mask, .item()), the roles swap: run builds on the CPU
    and the default device becomes meta. Returns (result, home), home being the device run built on. What run
    raised otherwise propagates."""
    try:
        return run("meta"), "meta"
    except Exception as exc:
        if not needs_values(exc):
            raise
    with torch.device("meta"):
        return run("cpu"), "cpu"


def relative_device(t: torch.Tensor, home: str) -> str:
    """"meta" for a tensor on the inputs' device (whichever ``off_default_device`` used), else where it is."""
    return "meta" if t.device.type == home else f"{t.device} (the inputs were on {home})"


def _flat_dot(a_list, b_list) -> float:
    return float(sum((a.double() * b.double()).sum() for a, b in zip(a_list, b_list) if a is not None and b is not None))


def vjp(fn, inputs, v):
    """Forward output and gradients of <v, fn(*inputs)> for each input (None where none flows)."""
    xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    y = fn(*xs)
    if not isinstance(y, torch.Tensor):
        raise TypeError(f"expected your function to return a tensor, got {type(y).__name__}")
    diff = [x for x in xs if x.requires_grad]
    grads = torch.autograd.grad(y, diff, v.to(y.dtype), allow_unused=True) if y.requires_grad else [None] * len(diff)
    it = iter(grads)
    return {"out": y.detach(), "grads": [next(it) if x.requires_grad else None for x in xs]}


def directional(fn, inputs, dirs, eps: float, order: int = 1, seed: int = 0):
    """Data for ``checks.gradcheck_directional``: per direction, numeric vs analytic directional derivatives."""
    gen = torch.Generator().manual_seed(seed)

    out = []
    base = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
    y0 = fn(*base)
    if not isinstance(y0, torch.Tensor):
        raise TypeError(f"expected your function to return a tensor, got {type(y0).__name__}")
    for us in dirs:
        try:
            v = torch.randn(y0.shape, generator=gen, dtype=torch.float64)
            if order == 1:
                g = _vjp_list(fn, base, v, create_graph=False)
                analytic = _flat_dot(g, us)
                plus = fn(*_shift(inputs, us, eps)).detach()
                minus = fn(*_shift(inputs, us, -eps)).detach()
                numeric = float(((plus - minus) / (2 * eps) * v).sum())
            else:
                w = [torch.randn(x.shape, generator=gen, dtype=torch.float64) if x.requires_grad else None
                     for x in inputs]
                xs = [x.detach().clone().requires_grad_(x.requires_grad) for x in inputs]
                g = _vjp_list(fn, xs, v, create_graph=True)
                s = sum((gi * wi).sum() for gi, wi in zip(g, w) if gi is not None and wi is not None)
                diff = [x for x in xs if x.requires_grad]
                if not isinstance(s, torch.Tensor) or not s.requires_grad:
                    raise RuntimeError("your backward is not differentiable (no graph was built through it)")
                h = torch.autograd.grad(s, diff, allow_unused=True)
                it = iter(h)
                h_all = [next(it) if x.requires_grad else None for x in xs]
                analytic = _flat_dot(h_all, us)
                gp = _vjp_list(fn, _shift(inputs, us, eps), v, create_graph=False)
                gm = _vjp_list(fn, _shift(inputs, us, -eps), v, create_graph=False)
                numeric = sum(float(((a - b) / (2 * eps) * wi).sum())
                              for a, b, wi in zip(gp, gm, w) if a is not None and wi is not None)
            out.append({"numeric": numeric, "analytic": analytic, "error": ""})
        except Exception as exc:
            out.append({"numeric": float("nan"), "analytic": float("nan"),
                        "error": f"{type(exc).__name__}: {str(exc)[:300]}"})
    return out


def _shift(inputs, us, eps):
    return [(x.detach() + eps * u if u is not None else x.detach()).clone().requires_grad_(x.requires_grad)
            for x, u in zip(inputs, us)]


def _vjp_list(fn, xs, v, create_graph):
    xs = [x if x.requires_grad or not isinstance(x, torch.Tensor) else x for x in xs]
    y = fn(*xs)
    diff = [x for x in xs if x.requires_grad]
    grads = torch.autograd.grad(y, diff, v.to(y.dtype), allow_unused=True, create_graph=create_graph)
    it = iter(grads)
    out = []
    for x in xs:
        if x.requires_grad:
            g = next(it)
            out.append(torch.zeros_like(x) if g is None else g)
        else:
            out.append(None)
    return out


# ---------------------------------------------------------------- memory layouts
def relayout(t: torch.Tensor, layout: str) -> torch.Tensor:
    """A tensor equal to ``t`` (same shape, dtype and values) whose memory is laid out as ``layout``.

    Where a layout cannot apply (a transpose of a 1-D tensor, channels-last of a 3-D one, a broadcast
    of values that differ), the strided one is used instead. 0-dim tensors are always contiguous.
    Layouts: contiguous, transposed, strided, offset, broadcast, channels_last (strategies.LAYOUTS).
    """
    shape = tuple(t.shape)
    if layout == "contiguous" or t.dim() == 0:
        return t.detach().clone().contiguous()
    if layout == "transposed" and t.dim() >= 2 and shape[-1] > 1 and shape[-2] > 1:
        return t.detach().transpose(-1, -2).contiguous().transpose(-1, -2)
    if layout == "offset":
        flat = torch.cat([torch.zeros(3, dtype=t.dtype, device=t.device), t.detach().reshape(-1)])
        return flat[3:].view(shape)
    if layout == "broadcast" and shape[0] > 1 and bool((t == t[:1]).all()):
        return t.detach()[:1].clone().expand(shape)
    if layout == "channels_last" and t.dim() == 4:
        return t.detach().contiguous(memory_format=torch.channels_last)
    # strided: every other element along the last dimension over 1 (torch ignores size-1 dimensions)
    d = max((i for i, n in enumerate(shape) if n > 1), default=t.dim() - 1)
    wide = torch.zeros(shape[:d] + (2 * shape[d],) + shape[d + 1:], dtype=t.dtype, device=t.device)
    index = (slice(None),) * d + (slice(None, None, 2),)
    wide[index] = t.detach()
    return wide[index]


# ---------------------------------------------------------------- checks after the call
def global_state(rng: bool = False) -> dict:
    """The process-wide settings a task might change and forget to restore (plain data).
    ``rng``: include the global torch RNG state (leave out where the task may draw random numbers)."""
    import warnings
    state = {
        "warning filters": [repr(f) for f in warnings.filters],
        "grad mode (torch.is_grad_enabled())": torch.is_grad_enabled(),
        "inference mode": torch.is_inference_mode_enabled(),
        "default dtype (torch.get_default_dtype())": str(torch.get_default_dtype()),
        "anomaly detection": torch.is_anomaly_enabled(),
        "deterministic algorithms": torch.are_deterministic_algorithms_enabled(),
        "global module hooks": _global_hook_counts(),
        "saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks)":
            torch._C._autograd._top_saved_tensors_default_hooks(False) is not None,
        "torch function modes active": torch._C._len_torch_function_stack(),
        "torch dispatch modes active (TorchDispatchMode)": torch._C._len_torch_dispatch_stack(),
        "autocast on CPU": torch.is_autocast_enabled("cpu"),
        "default device (torch.get_default_device())": str(torch.get_default_device()),
        "float32 matmul precision": torch.get_float32_matmul_precision(),
    }
    if rng:
        state["global RNG state (torch.get_rng_state())"] = torch.get_rng_state().tolist()
    return state


def _global_hook_counts() -> list:
    from torch.nn.modules import module as m
    names = ("_global_forward_hooks", "_global_forward_pre_hooks", "_global_backward_hooks",
             "_global_backward_pre_hooks", "_global_module_registration_hooks")
    return [len(getattr(m, n, {})) for n in names]


def module_state(model: torch.nn.Module) -> dict:
    """Per submodule: train/eval mode, how many hooks of each kind are registered, and which
    parameters require grad (plain data, to compare before and after a call)."""
    kinds = ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks", "_backward_pre_hooks",
             "_state_dict_hooks", "_load_state_dict_pre_hooks")
    return {name or "(the model)": {"training": mod.training,
                                    "hooks": {k.strip("_"): len(getattr(mod, k, {})) for k in kinds},
                                    "requires_grad": [p.requires_grad for p in mod.parameters(recurse=False)]}
            for name, mod in model.named_modules()}


def changes(before: dict, after: dict) -> list[str]:
    """What differs between two snapshots of global_state() or module_state(), one line each."""
    out = []
    for key in before.keys() | after.keys():
        b, a = before.get(key), after.get(key)
        if b == a:
            continue
        if key == "warning filters":
            added = [f for f in a if f not in b]
            out.append(f"warning filters: {len(added)} added and not removed ({'; '.join(added[:2])})"
                       if added else "warning filters: changed")
        elif isinstance(b, dict) and isinstance(a, dict):
            out += [f"{key}: {line}" for line in changes(b, a)]
        else:
            out.append(f"{key}: {b!r} before the call, {a!r} after" if len(repr(b)) < 80 else f"{key}: changed")
    return sorted(out)


def aliases(a, b) -> bool:
    """Whether two tensors share memory (the same object, or views of one storage)."""
    if a is b:
        return True
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return False
    if a.numel() == 0 or b.numel() == 0:
        return False
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


# ---------------------------------------------------------------- models from plain descriptions
MODEL_ARG_NAMES = ("x", "inputs", "batch", "features", "data", "input")
_MODEL_SOURCE = '''
class SpecNet(nn.Module):
    """A small MLP built from a plain description: body -> blocks -> layers, a head and a buffer."""

    def __init__(self, spec: dict):
        super().__init__()
        widths = [spec["in"]] + list(spec["hidden"])
        blocks = []
        for a, b in zip(widths, widths[1:]):
            layers = [nn.Linear(a, b)]
            if spec["norm"]:
                layers.append(nn.BatchNorm1d(b))
            layers.append(nn.ReLU())
            if spec["dropout"]:
                layers.append(nn.Dropout(0.25))
            blocks.append(nn.Sequential(*layers))
        self.body = nn.Sequential(*blocks)
        self.head = nn.Linear(widths[-1], spec["out"])
        self.register_buffer("scale", torch.tensor(1.5))

    def forward(self, ARG):
        return self.head(self.body(ARG)) * self.scale
'''
_model_classes: dict = {}


def _model_class(arg: str):
    """The SpecNet class whose forward argument is called ``arg``; its source is registered in
    linecache, so torch.jit.script and inspect can read it (the sandbox cannot read this file)."""
    if arg not in MODEL_ARG_NAMES:
        raise ValueError(f"model argument name {arg!r} is not one of {MODEL_ARG_NAMES}")
    if arg not in _model_classes:
        import linecache
        from torch import nn
        filename = f"<course-specnet-{arg}>"
        source = _MODEL_SOURCE.replace("ARG", arg)
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        ns = {"nn": nn, "torch": torch, "__name__": "course_specnet"}
        exec(compile(source, filename, "exec"), ns)
        _model_classes[arg] = ns["SpecNet"]
    return _model_classes[arg]


def build_model(spec: dict) -> torch.nn.Module:
    """The model a ``strategies.model_specs()`` description stands for, with weights from its seed
    (the same on the judge and next to the submission; the global RNG is left as it was)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec["seed"])
        model = _model_class(spec["arg"])(spec)
        with torch.no_grad():
            for bn in (m for m in model.modules() if isinstance(m, torch.nn.BatchNorm1d)):
                bn.running_mean.normal_(0, 0.5)
                bn.running_var.uniform_(0.5, 2.0)
    return model.double() if spec.get("double") else model


# ------------------------------------------------------------ rank pipes (15-08, 16-04)
# How a probe talks to the ranks it forks: a length-prefixed frame per message on a pipe per rank, read until
# every pipe closes or a deadline passes; the ranks' sessions killed and counted after.
def send_frame(fd: int, obj) -> None:
    """Write obj (torch.save'd) to fd as one frame: its length as 8 bytes, then the bytes."""
    bio = io.BytesIO()
    torch.save(obj, bio)
    data = bio.getvalue()
    view = memoryview(struct.pack(">Q", len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def read_frames(fds: dict, deadline: float, max_reply: int) -> tuple[dict, set]:
    """Frames per rank until every pipe closes or the deadline passes; a rank that sends more than max_reply
    bytes is no longer read. Returns (frames, ranks whose pipe is still open)."""
    bufs = {r: b"" for r in fds}
    frames = {r: [] for r in fds}
    open_ = set(fds)
    while open_:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([fds[r] for r in open_], [], [], min(left, 0.5))
        for r in [r for r in open_ if fds[r] in ready]:
            chunk = os.read(fds[r], 1 << 20)
            if not chunk:
                open_.discard(r)
                continue
            bufs[r] += chunk
            if len(bufs[r]) > max_reply:
                open_.discard(r)
                continue
            while len(bufs[r]) >= 8:
                (n,) = struct.unpack(">Q", bufs[r][:8])
                if len(bufs[r]) < 8 + n:
                    break
                frames[r].append(torch.load(io.BytesIO(bufs[r][8:8 + n]), weights_only=True))
                bufs[r] = bufs[r][8 + n:]
    return frames, open_


def session_members(sids) -> int:
    """How many live processes still belong to the sessions sids (the forked ranks lead one each)."""
    n = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) in sids:  # fields: state ppid pgrp session
            n += 1
    return n


def kill_sessions(pids) -> None:
    """SIGKILL each rank's process group, or the rank itself where it left its group."""
    for pid in pids:
        for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                kill()
            except OSError:
                pass


class RendezvousFailed(RuntimeError):
    """The forked ranks could not form their gloo group, attempt after attempt: the grading machine's
    trouble (a loaded node, a refused loopback connection), never a verdict on the submission."""


def join_group(store_path: str, rank: int, world: int, timeout_s: float, wfd: int, backend: str = "gloo"):
    """init_process_group through a FileStore at store_path; when the group cannot be formed, one frame
    ``{"rendezvous_failed": message}`` goes to wfd and SystemExit ends the rank, for ``fork_ranks`` to try again
    with a fresh store. Returns torch.distributed."""
    import datetime

    import torch.distributed as dist
    try:
        dist.init_process_group(backend, store=dist.FileStore(store_path, world), rank=rank, world_size=world,
                                timeout=datetime.timedelta(seconds=timeout_s))
    except Exception as exc:
        send_frame(wfd, {"rendezvous_failed": f"{type(exc).__name__}: {str(exc)[:300]}"})
        raise SystemExit(3) from None
    return dist


def _rendezvous_failure(frames: dict):
    for r in sorted(frames):
        for f in frames[r][:1]:
            if isinstance(f, dict) and "rendezvous_failed" in f:
                return f"rank {r}: {f['rendezvous_failed']}"
    return None


def _remove_store_folder(tmp: str) -> None:
    """The store folder holds the store file (and what a rank wrote there): its entries are unlinked, never
    followed; a folder a rank made inside stays (it lies in the sandbox's own tmp, or the judge's, where no
    submission runs). Probes run in a worker that cannot import the grader's fstree."""
    try:
        with os.scandir(tmp) as entries:
            for e in entries:
                if not e.is_dir(follow_symlinks=False):
                    os.unlink(os.path.join(tmp, e.name))
        os.rmdir(tmp)
    except OSError:
        pass


_RANK_RECORD = "course_rank_record"  # a rank's last frame: its own record of the probe's mode windows


def _recorder():
    """The judge worker's record of a probe's modes (course.judge.worker), where this process is a worker."""
    worker = sys.modules.get("course.judge.worker")
    return getattr(worker, "_WATCHER", [None])[0] if worker is not None else None


def _send_rank_record(wfd: int) -> None:
    """In a forked rank: what its probe windows saw run out of the modes' sight (the worker's own verdict covers
    only the worker's process), sent as its last frame; nothing where the record is clean or absent. Threads are
    not judged here: a rank's process group starts its own (a new group's gloo threads)."""
    try:
        rec = _recorder()
        hidden = rec.verdict(threads=False) if rec is not None else None  # gloo starts threads for new_group
        if hidden:
            send_frame(wfd, {_RANK_RECORD: hidden["message"].split(". This check reads how")[0]})
    except BaseException:
        pass


def _take_rank_records(frames: dict) -> None:
    """Take the ranks' records out of their frames and hand what they saw to the worker's record, which then
    fails the call (HiddenFromProbe) as it does for its own windows."""
    seen = []
    for r, got in frames.items():
        seen += [f"rank {r}: " + str(f[_RANK_RECORD]) for f in got if isinstance(f, dict) and _RANK_RECORD in f]
        got[:] = [f for f in got if not (isinstance(f, dict) and _RANK_RECORD in f)]
    rec = _recorder()
    if seen and rec is not None:
        rec.tampered.append("in a rank the check forked, " + "; ".join(seen[:2]).rstrip("."))


def fork_ranks(world: int, body, deadline_s: float, max_reply: int, attempts: int = 3) -> dict:
    """Fork ``world`` ranks, each running ``body(rank, store_path, wfd)`` (a fresh store folder per attempt) and
    read the frames each sends until every pipe closes or ``deadline_s`` passes; then kill each rank's session.
    A rank whose ``join_group`` failed (gloo's full mesh now and then fails to connect on a loaded machine)
    makes the whole world start again, up to ``attempts`` times, then RendezvousFailed.
    Returns {"frames": {rank: [...]}, "unfinished": set, "left_behind": n, "seconds": s, "attempts": k}."""
    import tempfile
    t0 = time.monotonic()
    for attempt in range(1, attempts + 1):
        tmp = tempfile.mkdtemp(prefix="ranks-")
        pids, fds = [], {}
        try:
            for rank in range(world):
                rfd, wfd = os.pipe()
                pid = os.fork()
                if pid == 0:  # the rank
                    code = 0
                    try:
                        os.close(rfd)
                        for other in fds.values():
                            os.close(other)
                        body(rank, os.path.join(tmp, "store"), wfd)
                    except BaseException:
                        code = 1
                    finally:
                        _send_rank_record(wfd)
                        os._exit(code)
                os.close(wfd)
                pids.append(pid)
                fds[rank] = rfd
            frames, unfinished = read_frames(fds, time.monotonic() + deadline_s, max_reply)
        finally:
            kill_sessions(pids)
            for pid in pids:
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass
            for fd in fds.values():
                os.close(fd)
            _remove_store_folder(tmp)
        failed = _rendezvous_failure(frames)
        if failed is None:
            _take_rank_records(frames)
            return {"frames": frames, "unfinished": unfinished, "left_behind": session_members(set(pids)),
                    "seconds": time.monotonic() - t0, "attempts": attempt}
    raise RendezvousFailed(f"the judge's {world} forked ranks could not form their gloo group in {attempts} "
                           f"attempts ({failed}): a problem of the grading machine, not of your code; "
                           f"ask for a regrade")


def judge_ranks(world: int, target, deadline_s: float, max_reply: int = 2**24):
    """The judge's own distributed run, for a reference to compare a submission's ranks with (PyTorch's
    ZeroRedundancyOptimizer, fully_shard): ``world`` processes forked from the judge (never from a worker),
    each calling ``target(rank, world, store_path, wfd)`` in a session of its own with stdout and stderr
    silenced and one thread (``target`` joins the group with ``join_group``); the frames each sent, or None
    when a rank did not finish within ``deadline_s`` or the ranks formed no group after the retries. Only the
    judge's code runs in them: no submission object reaches here."""
    import gc

    def body(rank, store_path, wfd):
        os.setsid()
        gc.freeze()  # the judge's objects, inherited: a collection would walk them all (about 1 s a rank)
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        os.environ["GLOO_SOCKET_IFNAME"] = "lo"
        torch.set_num_threads(1)
        import warnings
        warnings.simplefilter("ignore")
        target(rank, world, store_path, wfd)

    try:
        out = fork_ranks(world, body, deadline_s, max_reply)
    except RendezvousFailed:  # no group formed after the retries: not finished, which the caller reports
        return None
    return None if out["unfinished"] else out["frames"]

