"""The process that runs submission code (untrusted side).

Started by ``course.judge.adapter`` (inside the sandbox when grading). It keeps the
protocol on private copies of stdin/stdout, sends everything the submission
prints to the log, receives the probes (compiled by the judge: code objects,
never the source text), runs the submission's code cells once, then answers
probe calls: a probe is a small function from the assignment's ``probes.py``
that calls the submission and returns plain data (tensors, numbers, strings,
lists, dicts). The judge compares that data in its own process, so nothing
the submission patches here can change a verdict.

Frames are 8-byte big-endian lengths followed by ``course.wire`` bytes, or ``torch.save``
bytes for values that format does not write; the judge reads the latter with ``weights_only=True``.
"""
from __future__ import annotations

import inspect
import io
import linecache
import os
import struct
import sys
import threading
import traceback
import types

from .. import wire  # imported before any sandbox is entered: a worker cannot import from the course later
from . import pristine, seal
from .seal import code as torch_code  # torch's code held still where native calls are counted


def _read_exact(fd: int, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = os.read(fd, n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def recv(fd: int):
    import torch
    (n,) = struct.unpack(">Q", _read_exact(fd, 8))
    data = _read_exact(fd, n)
    if wire.is_frame(data):
        return wire.loads(data, trusted=True)
    return torch.load(io.BytesIO(data), weights_only=False)


def send(fd: int, obj) -> None:
    import torch
    try:
        data = wire.dumps(obj, drop_attributes=True)
    except wire.Unencodable:
        bio = io.BytesIO()
        torch.save(obj, bio)
        data = bio.getvalue()
    payload = struct.pack(">Q", len(data)) + data
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view):]


def student_trace(exc: BaseException, limit: int = 3) -> str:
    """The last few frames that are in the submission's own cells, one line each."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith("<cell ")]
    lines = [f"{f.filename[1:-1]}, line {f.lineno}, in {f.name}: {(f.line or '').strip()}" for f in frames[-limit:]]
    return "\n".join(lines)


def describe(exc: BaseException) -> dict:
    msg = str(exc)
    if len(msg) > 600:
        msg = msg[:600] + " ..."
    return {"type": type(exc).__name__, "message": msg, "trace": student_trace(exc)}


def reset_globals() -> None:
    """Undo global settings a submission may have changed, so a correct answer is judged fairly."""
    import warnings

    import torch
    warnings.resetwarnings()
    warnings.simplefilter("ignore")
    torch.set_default_dtype(torch.float32)
    torch.set_grad_enabled(True)
    torch.autograd.set_detect_anomaly(False)
    if torch.are_deterministic_algorithms_enabled() or torch.is_deterministic_algorithms_warn_only_enabled():
        torch.use_deterministic_algorithms(False)  # imports torch._inductor (and dynamo): 1-1.7 s, so only when set
    inductor = sys.modules.get("torch._inductor.config")
    if inductor is not None:
        inductor.deterministic = False
    torch.set_default_device(None)
    torch.set_float32_matmul_precision("highest")
    torch.set_autocast_enabled("cpu", False)


def broad_warning_filters() -> str:
    """The warning filters that match every message from every module (``simplefilter``, or
    ``filterwarnings`` with no message or module pattern), first first; the narrow ones libraries add
    when imported are left out, and so are filters on a library's own category (sympy's first import adds
    ``once:SymPyDeprecationWarning``: a submission whose call first imports sympy changed nothing of its own)."""
    import warnings
    broad = [f"{action}:{category.__name__}" for action, message, category, module, lineno in warnings.filters
             if message is None and module is None and not lineno and category.__module__ == "builtins"]
    return "[" + ", ".join(broad[:4] + (["..."] if len(broad) > 4 else [])) + "]"


def global_module_hooks() -> int:
    """How many global module hooks (torch.nn.modules.module.register_module_*_hook) are registered."""
    from torch.nn.modules import module as m
    names = ("_global_forward_hooks", "_global_forward_pre_hooks", "_global_backward_hooks",
             "_global_backward_pre_hooks", "_global_module_registration_hooks", "_global_parameter_registration_hooks",
             "_global_buffer_registration_hooks")
    return sum(len(getattr(m, n, {})) for n in names)


# Process-wide settings no task may leave changed: (what the student reads, how to read it).
GLOBAL_SETTINGS = (
    ("torch.is_grad_enabled()", lambda t: t.is_grad_enabled()),
    ("torch.is_inference_mode_enabled()", lambda t: t.is_inference_mode_enabled()),
    ("torch.get_default_dtype()", lambda t: t.get_default_dtype()),
    ("torch.is_anomaly_enabled()", lambda t: t.is_anomaly_enabled()),
    ("torch.are_deterministic_algorithms_enabled()", lambda t: t.are_deterministic_algorithms_enabled()),
    ("the warning filters for all warnings (warnings.filters)", lambda t: broad_warning_filters()),
    ("torch.get_default_device()", lambda t: t.get_default_device()),
    ("torch.get_float32_matmul_precision()", lambda t: t.get_float32_matmul_precision()),
    ("torch.is_autocast_enabled('cpu')", lambda t: t.is_autocast_enabled("cpu")),
    ("the number of active saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks)",
     lambda t: t._C._autograd._top_saved_tensors_default_hooks(False) is not None),
    ("the number of active TorchFunctionModes", lambda t: t._C._len_torch_function_stack()),
    ("the number of active TorchDispatchModes", lambda t: t._C._len_torch_dispatch_stack()),
    ("the number of global module hooks (register_module_forward_hook and the like)",
     lambda t: global_module_hooks()),
)


def global_settings() -> tuple:
    import torch
    return tuple(read(torch) for _, read in GLOBAL_SETTINGS)


def settings_leak(before: tuple, after: tuple) -> dict | None:
    """The error a call reports when it left a process-wide setting changed (it fails the check)."""
    changed = [f"{name} was {b} before the call and {a} after it"
               for (name, _), b, a in zip(GLOBAL_SETTINGS, before, after) if b != a]
    if not changed:
        return None
    return {"type": "GlobalStateLeak", "trace": "",
            "message": "a global setting was left changed: " + "; ".join(changed) +
                       " (change such settings inside a `with` block, which restores them)"}


class GlobalStateLeak(Exception):
    def __init__(self, err: dict):
        super().__init__(err["message"])
        self.err = err


# ---------------------------------------------------------------- ops hidden from a probe's op log
# Ops hidden from a probe's op log (red team 19), seen from the dispatcher's own record.
#
# A check of how a result is computed (an op log, "does not call", "computes nothing", the largest tensor made)
# reads what a ``TorchDispatchMode`` defined in the assignment's ``probes.py`` was shown while the submission ran.
# The submission runs in the same process, and one public line switches such a mode off around its own code
# (``torch.utils._python_dispatch._disable_current_modes()``, the Python dispatch key excluded, the mode popped
# by hand): the log then shows nothing forbidden, nothing large, no product, and the check passes.
#
# What the dispatcher records is not switched off with the mode: while a probe's mode is entered, the worker runs
# PyTorch's legacy CPU profiler (``RecordFunction``, in C++, below every Python mode), and every op the dispatcher
# runs there is an event. An op that reached the mode has the judge's range around the mode's ``__torch_dispatch__``
# (DISPATCH) inside its own (red team 19 read PyTorch's ``PythonDispatchMode`` range, which any code can forge; red
# team 21); an outermost op (nested in no other op but those that decompose above the mode) without one ran out of
# the mode's sight. The
# call then fails (``HiddenFromProbe``, the judge counts it as an incident for the instructor): no correct answer has
# a reason to hide an op from the checks. The profiler stopped or restarted under the probe (its start marker lost)
# fails the call the same way.
#
# A ``TorchFunctionMode`` of the probes (00-01's forbidden calls, 00-02's autograd, 15-04's cross-entropy, the
# factories 15-08, 16-01 and 16-04 watch, classes defined inside a probe function included) is switched off as
# easily (``torch._C.DisableTorchFunction()``, its stack popped by hand; red team 20). Its window is recorded the
# same way, with a range (FUNCTION) around the mode's own ``__torch_function__``: every op the dispatcher runs on
# the calling thread while such a mode is entered lies inside that range (a call the mode was shown, and what it
# ran), inside another op, or inside PyTorch's printing; an op outside all three was called past the mode.
#
# Only the worker's calling thread is recorded (the legacy profiler's callbacks are thread-local, and so is the mode
# stack): an op run on a thread of the submission's own is hidden from both, see docs/security.md. Nothing here is
# out of a hostile submission's reach (ctypes reaches any kernel, profiler events can be emitted under any name): it
# turns a public one-line switch into deliberate forgery of the recorder, which the feedback and the incident name.
START = "course::probe_mode_window"
# PyTorch itself runs these below the Python dispatch key while a mode is active (nn.Parameter's detach inside
# Tensor._make_subclass, torch.tensor()'s detach_, the autograd engine's size checks): they compute nothing and
# make no storage.
EXEMPT = frozenset({"aten::detach", "aten::detach_", "aten::alias", "aten::is_same_size",
                    "aten::_has_same_storage_numel"})
PRINTING = "course::tensor_str"  # PyTorch's tensor printing switches every mode off itself (torch._tensor_str._str)
DISPATCH = "course::dispatch_mode"  # around a probe's TorchDispatchMode.__torch_dispatch__ (see _range)
FUNCTION = "course::function_mode"  # around a probe's TorchFunctionMode.__torch_function__
# around PyTorch's control-flow operators called eagerly (torch.cond, while_loop, scan, map): their eager path runs
# the branches through torch.compile, which traces the mode into its graph and runs the graph's ops past it
COMPILED = "course::compiled_control_flow"
# around the Triton interpreter's copies of a launch's arguments to the host and back (16-01): storage methods
# (UntypedStorage.cpu, copy_), which no torch function covers; and around torch.distributed's barrier and group
# calls, whose C++ makes its own buffer (15-08)
INTERPRETER = "course::library_internals"
# where a probe's mode is entered and left, in the record (which stretch of the window each kind of check covers)
ON = {"dispatch": "course::dispatch_mode_on", "function": "course::function_mode_on"}
OFF = {"dispatch": "course::dispatch_mode_off", "function": "course::function_mode_off"}
# PyTorch's own Python runs these with torch functions off (torch.load's storage rebuild: set_; torch.from_numpy and
# a tensor's lifting: lift_fresh): they compute nothing, as EXEMPT's
FUNCTION_EXEMPT = EXEMPT | {"aten::set_", "aten::lift_fresh", "aten::lift_fresh_copy", "aten::lift"}
COMMUNICATION = "c10d::"  # a process group's collectives (reached from its C++ methods): they move, not compute


_NAMES = (START, PRINTING, DISPATCH, FUNCTION, COMPILED, INTERPRETER, *ON.values(), *OFF.values())


class HiddenFromProbe(Exception):
    def __init__(self, err: dict):
        super().__init__(err["message"])
        self.err = err


def mode_classes(mod, kind: str = "dispatch") -> list:
    """The TorchDispatchMode (kind "dispatch") or TorchFunctionMode ("function") classes a probes module defines
    at its top level."""
    try:
        if kind == "function":
            from torch.overrides import TorchFunctionMode as base
        else:
            from torch.utils._python_dispatch import TorchDispatchMode as base
    except ImportError:  # pragma: no cover
        return []
    return [v for v in vars(mod).values()
            if isinstance(v, type) and issubclass(v, base) and v.__module__ == mod.__name__]


# The recorder's own ranges (red team 21): a range is only a name, and any code can open one under any name
# (``torch.profiler.record_function("course::library_internals")``, ``_RecordFunctionFast("PythonDispatchMode")``): a
# forged range of the recorder's around hidden work took it for PyTorch's own (00-01 result_dtype 7/7, 16-03 blocked
# 26/27). Every range of the judge's is opened through ``_range``, which counts it; a window whose record holds more
# ranges of one of these names than the judge opened in it was forged, and fails the call. PyTorch's own
# ``PythonDispatchMode`` range (which any code can forge too) no longer tells that an op reached a probe's mode: a
# range of the judge's around the probe's ``__torch_dispatch__`` (DISPATCH) does.
_OPENED: dict[str, int] = {}  # how many ranges of each of the judge's names it has opened (this process)


def _range(name: str):
    """A range of the judge's own in the dispatcher's record, counted (not where the record is off: _Quiet)."""
    import torch
    if not _QUIET.depth:
        _OPENED[name] = _OPENED.get(name, 0) + 1
    return torch._C._profiler._RecordFunctionFast(name)


class _Quiet(threading.local):
    """Inside a probe mode's handler nothing nested is judged (an op it runs was shown to the mode), so the calling
    thread's RecordFunction callbacks are off there: the record keeps the handler's own range and none of the ops it
    runs (about 5 of every 8 ranges a small op under a dispatch mode made, 2026-12-05). ``depth``: handlers entered
    on this thread with the record off; ``switch``: PyTorch's switch itself (set by _guard_record_function)."""
    depth = 0
    switch = None

    def __enter__(self):
        if not self.depth:
            self.switch(False)
        self.depth += 1

    def __exit__(self, *exc):
        self.depth -= 1
        if not self.depth:
            self.switch(True)


_QUIET = _Quiet()

# Every wrapper the judge sets on PyTorch's or the standard library's objects (the worker's seal holds them: a
# submission that puts PyTorch's own back fails the call, course/judge/seal/).
_INSTALLED: list = []


def _install(owner, name: str, wrapper) -> None:
    setattr(owner, name, wrapper)
    _INSTALLED.append((owner, name, wrapper))


def _mark_printing() -> None:
    """A range named PRINTING around PyTorch's tensor printing, once per process (a submission that prints a
    tensor inside a check is not hiding anything)."""
    import torch._tensor_str as ts
    if getattr(ts._str, "_course_marked", False):
        return
    inner = ts._str

    def _str(*args, **kwargs):
        import torch
        with _range(PRINTING):
            return inner(*args, **kwargs)

    _str._course_marked = True
    _install(ts, "_str", _str)


# Work moved off the calling thread (red team 20): the mode stack and the record are the calling thread's, so PyTorch's
# attention on a thread of the submission's own ran out of both (16-03 blocked 26/27). While a window is open, a
# thread started through Python (``_thread``, which ``threading`` and ``concurrent.futures`` use) or a process
# (``os.fork``, ``posix_spawn``, ``subprocess``: audit events, which no code can remove) fails the call too, as does
# a thread that was not running when the window opened and still is when it closes, and a thread started or a
# process forked earlier (the worker's pristine copy aside) that runs while it is open. (A thread made outside
# Python, ctypes' pthread_create, is forgery of the kind above.)
_SPAWN_EVENTS = frozenset({"os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system", "os.exec",
                           "subprocess.Popen", "pty.spawn"})


_WATCHER: list = [None, False]  # the recorder told of threads and processes started, and whether the hooks are in


def _guard_record_function() -> None:
    """PyTorch's switch of the calling thread's RecordFunction callbacks (``torch.autograd._enable_record_function``)
    turns the whole record off: ops run with it off and the probe's mode popped left no trace at all (16-03 blocked,
    2026-12-05). Both of its Python names are wrapped once per process: a call while a window is open fails the
    call. (A window opened with it off loses its start marker, and a judge's range run with it off is missing from
    the record: both fail too, in ``_read``.)"""
    import torch
    import torch._C._autograd as cauto
    inner = getattr(cauto, "_enable_record_function", None)
    if inner is None or getattr(inner, "_course_marked", False):
        return

    def _enable_record_function(enable, _inner=inner):
        rec = _WATCHER[0]
        if rec is not None and rec.depth and not any("RecordFunction" in t for t in rec.tampered):
            rec.tampered.append("PyTorch's RecordFunction callbacks were switched (torch.autograd."
                                "_enable_record_function) while the check's op log was open: ops run with them off "
                                "leave no record")
        return _inner(enable)

    _Quiet.switch = staticmethod(inner)
    _enable_record_function._course_marked = True
    _enable_record_function.__doc__ = inner.__doc__
    _install(cauto, "_enable_record_function", _enable_record_function)
    if getattr(torch.autograd, "_enable_record_function", None) is inner:
        _install(torch.autograd, "_enable_record_function", _enable_record_function)


def _threads() -> set[str]:
    try:
        return set(os.listdir("/proc/self/task"))
    except OSError:  # pragma: no cover (no /proc)
        return set()


def _children() -> set[str]:
    """The process ids of this process's live children (every thread's)."""
    out: set[str] = set()
    for t in _threads():
        try:
            with open(f"/proc/self/task/{t}/children") as f:
                out.update(f.read().split())
        except OSError:
            pass
    return out


def _cpu_ns(tids, where: str = "/proc/self/task") -> dict[str, int]:
    """The CPU time each of these live threads (or, with where="/proc", processes) has run (ns, the scheduler's
    own count)."""
    out = {}
    for t in tids:
        try:
            with open(f"{where}/{t}/schedstat") as f:
                out[t] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return out


# Work in another process of the sandbox (red team 21). A process forked before the window that forks again and
# exits leaves a grandchild that is no child of the worker (re-parented to the sandbox's pid 1), and a child's work
# on a thread of its own is not its main thread's: both answered 00-01 result_dtype through torch.result_type in
# another process, 7/7. The pristine copy's fresh interpreters (``pristine.run_fresh``, reachable from a cell)
# did the same. While a window is open, every process of the worker's tree but the pristine copy's, and (in a
# sandbox, a pid namespace of its own) every process re-parented to its pid 1, is watched over all its threads;
# and in a sandbox the namespace's last pid (/proc/sys/kernel/ns_last_pid) must not move: no task (thread or
# process, made through Python, ctypes or a raw clone) may be created in the sandbox while a window is open.
def _sandboxed() -> bool:
    """True in the course's sandbox (a seccomp filter, a pid namespace and a /proc of its own), where pid 1 is the
    sandbox's init and every process listed is the sandbox's."""
    try:
        with open("/proc/self/status") as f:
            return any(line.startswith("Seccomp:") and line.split()[1] != "0" for line in f) and os.getpid() != 1
    except (OSError, IndexError):  # pragma: no cover
        return False


def _parent(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[1]
    except (OSError, IndexError):
        return "0"


def _ancestors() -> set[str]:
    out, pid = set(), str(os.getppid())
    while pid not in ("0", "") and pid not in out:
        out.add(pid)
        pid = _parent(pid)
    return out


def _tree(roots, skip: set[str]) -> set[str]:
    """These processes and their descendants, the subtrees under ``skip`` left out."""
    out, todo = set(), [r for r in roots if r not in skip]
    while todo:
        pid = todo.pop()
        if pid in out:
            continue
        out.add(pid)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for t in tasks:
            try:
                with open(f"/proc/{pid}/task/{t}/children") as f:
                    todo.extend(c for c in f.read().split() if c not in skip and c not in out)
            except OSError:
                pass
    return out


def _own_world(ancestors: set[str]) -> bool:
    """True where every process /proc lists is pid 1, one of the worker's ancestors, or in the tree of the worker or
    of an ancestor below pid 1 (a zygote's other workers): a pid namespace of the sandbox's own, not a host's or a
    container's (whose seccomp profile may look like the sandbox's), where other work is no submission's."""
    if "1" not in ancestors:
        return False
    try:
        pids = {p for p in os.listdir("/proc") if p.isdigit()}
    except OSError:  # pragma: no cover
        return False
    return pids <= ancestors | _tree((ancestors - {"1"}) | {str(os.getpid())}, set())


def _process_cpu(pids) -> dict[str, int]:
    """The CPU time (ns) each of these processes has run, over all its live threads."""
    out = {}
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        out[pid] = sum(_cpu_ns(tasks, f"/proc/{pid}/task").values())
    return out


def _last_pid() -> int | None:
    try:
        with open("/proc/sys/kernel/ns_last_pid") as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def _driver_thread(tid: str) -> bool:
    """A thread of the CUDA driver or of the autograd engine's device queues (made by PyTorch where a GPU is used,
    after the worker's own threads were counted): named by them, and only once CUDA is initialized."""
    cuda = sys.modules.get("torch.cuda")
    if cuda is None or not cuda.is_initialized():
        return False
    try:
        with open(f"/proc/self/task/{tid}/comm") as f:
            return f.read().startswith(("cuda", "pt_autograd"))
    except OSError:
        return False


class _InCompiled(threading.local):
    depth = 0  # torch.cond and its kin's compiled eager path entered on this thread (their graph calls the HOP)


_IN_COMPILED = _InCompiled()
# the control-flow operators whose bodies are the caller's own Python (torch.ops.higher_order.<name>)
_CONTROL_FLOW = frozenset({"cond", "while_loop", "scan", "map_impl", "associative_scan"})


def _probe_function_mode_on() -> bool:
    """A probe's (recorded) TorchFunctionMode is on the calling thread's stack, and a window is open."""
    rec = _WATCHER[0]
    if rec is None or not rec.depth or "function" not in rec.kinds:
        return False
    from torch.overrides import _get_current_function_mode_stack
    return any(getattr(type(m), "_course_recorded", False) for m in _get_current_function_mode_stack())


def _out_of_sight(what: str) -> None:
    rec = _WATCHER[0]
    if rec is not None and rec.depth and not any("out of the check's sight" in t for t in rec.tampered):
        rec.tampered.append(f"{what} was called while the check's TorchFunctionMode was entered: the operator's "
                            "bodies run out of the check's sight (only torch.cond's are shown to it, by running "
                            "the branch taken as plain code)")


def _mark_control_flow() -> None:
    """A range named COMPILED around torch.cond and its kin, where they are called eagerly (once per process).

    Red team 23: the compiled path shows a probe's TorchFunctionMode ``cond`` alone, never the branch's calls (16-01's
    output made without device= inside a branch passed test_launch_on_x_device). Under a probe's function mode (a
    window open), torch.cond with a tensor predicate still runs the compiled path (its checks of the branches), then
    the branch taken as plain code under the mode, whose result it returns: the mode is shown the branch's calls as
    eager code's, and a call past it inside is judged. while_loop, scan, map and associative_scan there, and the
    control-flow operators called directly (``torch.ops.higher_order.cond``: the branch runs inside the mode's own
    handling), fail the call."""
    import torch
    import torch._higher_order_ops as hops
    from torch._ops import HigherOrderOperator
    mark, compiling = _range, torch.compiler.is_compiling
    for owner, name in ((torch, "cond"), (hops, "cond"), (sys.modules.get("torch._higher_order_ops.cond"), "cond"),
                        (hops, "while_loop"), (hops, "scan"), (hops, "map"), (hops, "associative_scan")):
        inner = getattr(owner, name, None) if owner is not None else None
        if not callable(inner) or isinstance(inner, types.ModuleType) or getattr(inner, "_course_marked", False):
            continue

        def wrapped(*args, _inner=inner, _cond=name == "cond", _name=name, **kwargs):
            # cond with a Python predicate calls the branch eagerly, under the probe's mode as any code: nothing
            # compiled to take for PyTorch's own (red team 22: a branch with torch functions off hid F.cross_entropy)
            if compiling() or (_cond and isinstance(args[0] if args else kwargs.get("pred"), (bool, int, float))):
                return _inner(*args, **kwargs)
            watched = _probe_function_mode_on()
            if watched and not _cond:
                _out_of_sight(f"torch's {_name}")
            _IN_COMPILED.depth += 1
            try:
                with mark(COMPILED):
                    out = _inner(*args, **kwargs)
            finally:
                _IN_COMPILED.depth -= 1
            if not (watched and _cond):
                return out
            call = inspect.signature(_inner).bind(*args, **kwargs)
            call.apply_defaults()
            pred, operands = call.arguments["pred"], call.arguments["operands"]
            with mark(COMPILED), torch._C.DisableTorchFunction():
                take = bool(pred)
            return (call.arguments["true_fn"] if take else call.arguments["false_fn"])(*operands)

        wrapped._course_marked = True
        wrapped.__wrapped__ = inner
        wrapped.__name__, wrapped.__qualname__, wrapped.__doc__ = inner.__name__, inner.__qualname__, inner.__doc__
        _install(owner, name, wrapped)
    call = HigherOrderOperator.__call__
    if getattr(call, "_course_marked", False):
        return

    def __call__(self, *args, **kwargs):
        if getattr(self, "_name", None) in _CONTROL_FLOW and not _IN_COMPILED.depth and not compiling() \
                and _probe_function_mode_on():
            _out_of_sight(f"torch.ops.higher_order.{self._name}")
        return call(self, *args, **kwargs)

    __call__._course_marked = True
    __call__.__wrapped__ = call
    _install(HigherOrderOperator, "__call__", __call__)


def _mark_distributed() -> None:
    """A range named INTERPRETER around torch.distributed's calls whose C++ makes tensors itself (barrier's buffer, a
    collective's splits and copies), once torch.distributed is imported (15-08 calls a student's collectives in
    process under a function mode; 16-04's ranks run them under one)."""
    c10d = sys.modules.get("torch.distributed.distributed_c10d")
    if c10d is None or getattr(c10d, "_course_marked", False):
        return
    import torch
    mark = _range
    top = sys.modules.get("torch.distributed")
    # and the tensor collectives: a backend's C++ splits and copies around its c10d op (gloo's reduce_scatter_single:
    # aten::chunk before, aten::copy_ after), seen in the ranks 16-04's probes fork. The *_object forms are left
    # out: they pickle the caller's objects, which runs the submission's code.
    for name in ("barrier", "monitored_barrier", "new_group", "new_subgroups", "new_subgroups_by_enumeration",
                 "destroy_process_group", "all_reduce", "all_reduce_coalesced", "all_gather", "all_gather_into_tensor",
                 "_all_gather_base", "all_gather_coalesced", "reduce_scatter", "reduce_scatter_tensor",
                 "_reduce_scatter_base", "reduce_scatter_single", "broadcast", "reduce", "scatter", "gather",
                 "all_to_all", "all_to_all_single", "send", "recv", "isend", "irecv", "batch_isend_irecv"):
        inner = getattr(c10d, name, None)
        if not callable(inner):
            continue

        def wrapped(*args, _inner=inner, **kwargs):
            with mark(INTERPRETER):
                return _inner(*args, **kwargs)

        wrapped.__name__, wrapped.__qualname__, wrapped.__doc__ = inner.__name__, inner.__qualname__, inner.__doc__
        wrapped.__wrapped__ = inner
        _install(c10d, name, wrapped)
        if top is not None and getattr(top, name, None) is inner:
            _install(top, name, wrapped)
    c10d._course_marked = True


def _mark_interpreter() -> None:
    """A range named INTERPRETER around the Triton interpreter's argument copies, once it is imported."""
    _mark_distributed()
    gx = getattr(sys.modules.get("triton.runtime.interpreter"), "GridExecutor", None)
    if gx is None or getattr(gx, "_course_marked", False):
        return
    import torch
    mark = _range
    for name in ("_init_args_hst", "_restore_args_dev"):
        inner = getattr(gx, name, None)
        if not callable(inner):
            continue

        def wrapped(*args, _inner=inner, **kwargs):
            with mark(INTERPRETER):
                return _inner(*args, **kwargs)

        wrapped.__name__, wrapped.__wrapped__ = name, inner
        _install(gx, name, wrapped)
    gx._course_marked = True


class Recorder:
    """The dispatcher's record of each window in which a probe's mode is entered (one worker, one thread)."""

    def __init__(self):
        self.depth = 0
        self.hidden: list[str] = []
        self.passed: list[str] = []  # ops called past a probe's TorchFunctionMode
        self.tampered: list[str] = []
        self.threads: list[str] = []  # threads started or woken in a window (a rank's own are its process group's)
        self.kinds: set[str] = set()  # the kinds of mode entered in this window
        self.live = 0  # probe dispatch modes entered now (a function mode's handler keeps the record on under one)
        self.modules: set[str] = set()  # the probes modules whose function-mode classes are instrumented
        self._known: dict[str, str] = {}
        self._groups: dict[str, list[str]] = {}
        self._tasks: set[str] = set()  # the process's threads when the window opened
        self.python_threads: set[str] = set()  # native ids of the threads started through Python (watch_spawning)
        self._ran: dict[str, int] = {}  # their CPU time (ns) when the window opened
        self.own_children: set[str] = set()  # the worker's children before any cell ran (the pristine copy)
        self._kids: dict[str, int] = {}  # the other processes' CPU time when the window opened (all their threads)
        self.baseline: set[str] = set()  # the worker's threads before any cell ran (its own and PyTorch's pool)
        self.sandboxed = False  # in a pid namespace of its own (the course's sandbox)
        self.ancestors: set[str] = set()  # the processes above the worker (the sandbox's init, a zygote)
        self._pid0: int | None = None  # the sandbox's last pid when the window opened
        self._opened: dict[str, int] = {}  # how many of each of the judge's ranges it had opened then
        # threads started through threading, and other tasks through Python (_thread itself, a process), since the
        # start: a call watched without a window (functions_entered) compares them, and the sandbox's last pid
        self.starts = {"threading": 0, "other": 0}

    # ------------------------------------------------------------ threads and processes started in a window
    def watch_spawning(self) -> None:
        """Note a thread or process started while a window of this recorder is open (hooks installed once per
        process, reporting to the last recorder that asked: the worker has one)."""
        _WATCHER[0] = self
        self.own_children = _children()
        self.ancestors = _ancestors()
        self.sandboxed = _sandboxed() and _own_world(self.ancestors)
        if _WATCHER[1]:
            self.baseline = _threads()
            return
        _WATCHER[1] = True
        import _thread
        import threading

        import torch
        # PyTorch's own pool of threads made now, not in the first window that needs it (a parallel op takes at most
        # one thread per 32,768 elements: enough elements for every thread of the pool)
        torch.ones(max(1 << 20, 65536 * torch.get_num_threads())).add_(1)
        if not torch.cuda.is_available():
            # The autograd engine starts its device threads once, at its first backward, for as many devices as
            # the registered device guards count. After a compiled backward a guard counts 8 devices (which one
            # was not identified), so a probe's first one made 8 pt_autograd threads after the baseline: counted as the submission's (under
            # load one was still starting when the next check's call began: a correct 15-06 answer failed) and the
            # process marked unable to fork for autograd. A first backward now, with no such device counted,
            # starts none, and the engine never looks again. (With a GPU the threads are CUDA's: _driver_thread.)
            w = torch.ones(1, requires_grad=True)
            w.sum().backward()
        self.baseline = _threads()

        def started(what: str) -> None:
            rec = _WATCHER[0]
            seen = rec.threads if what == "a thread" else rec.tampered
            if rec.depth and not any(what in t for t in seen):
                seen.append(f"{what} was started while the check's op log was open (work on another thread "
                                    "or process is out of its sight)")

        def audit(event, args):
            if event in _SPAWN_EVENTS:
                _WATCHER[0].starts["other"] += 1
                started(f"a process ({event})")

        sys.addaudithook(audit)
        _guard_record_function()
        for mod, name in ((_thread, "start_new_thread"), (_thread, "start_joinable_thread"),
                          (threading, "_start_new_thread"), (threading, "_start_joinable_thread")):
            inner = getattr(mod, name, None)
            if inner is None:
                continue

            def start(function, *args, _inner=inner, _how="threading" if mod is threading else "other", **kwargs):
                _WATCHER[0].starts[_how] += 1
                started("a thread")

                def run(*a, **k):
                    _WATCHER[0].python_threads.add(str(_thread.get_native_id()))
                    return function(*a, **k)

                return _inner(run, *args, **kwargs)

            _install(mod, name, start)

    # ------------------------------------------------------------ a call watched without a window
    def others_ran(self) -> dict[str, int]:
        """The CPU time (ns) of every thread a window would watch (those the submission started earlier) and of the
        processes it would (forked earlier), for a check that watches a call without opening one
        (``probelib.functions_entered``: its profile hook is the calling thread's and the new Python threads')."""
        import threading
        me = str(threading.get_native_id())
        ran = {f"t{t}": ns for t, ns in _cpu_ns(t for t in _threads() - self.baseline - {me}
                                                 if t in self.python_threads or not _driver_thread(t)).items()}
        return ran | {f"p{p}": ns for p, ns in _process_cpu(self._watched()).items()}

    def created(self) -> tuple:
        """What ``created_since`` compares: the threads and tasks started through Python so far, and the sandbox's
        last pid."""
        return (self.starts["threading"], self.starts["other"], _last_pid() if self.sandboxed else None,
                _threads() if self.sandboxed else None)

    def created_since(self, before: tuple) -> int:
        """How many threads or processes were made since ``created()`` returned ``before`` other than through
        threading (whose threads a profile hook follows): through _thread itself, os.fork or subprocess (Python's),
        or in the sandbox any task at all (ctypes' pthread_create or a raw clone: the namespace's last pid moved
        past the threading threads started meanwhile; red team 23)."""
        threads, other, pid, now = self.created()
        made = other - before[1]
        if pid is not None and before[2] is not None:
            # CUDA's driver threads, made by PyTorch when the call first touches the GPU, are not the submission's
            driver = sum(_driver_thread(t) for t in now - before[3])
            made = max(made, pid - before[2] - (threads - before[0]) - driver)
        return made

    def woke(self, before: dict[str, int]) -> list[str]:
        """Of ``others_ran()``'s threads and processes, those that ran since (one gone since ran)."""
        now = {f"t{t}": ns for t, ns in _cpu_ns(k[1:] for k in before if k[0] == "t").items()}
        now |= {f"p{p}": ns for p, ns in _process_cpu(k[1:] for k in before if k[0] == "p").items()}
        return sorted(k for k, ns in before.items() if now.get(k, ns + 1) > ns)

    # ------------------------------------------------------------ the probe's mode, wrapped
    def instrument(self, cls, kind: str = "dispatch") -> None:
        """Wrap a probe's mode class: entering it opens the window (the record), and its stretch is marked."""
        if cls.__dict__.get("_course_recorded"):
            return
        enter, leave, rec = cls.__enter__, cls.__exit__, self
        on, off = ON[kind], OFF[kind]
        _mark_printing()
        import torch
        mark = _range

        def __enter__(mode):
            rec._open()
            rec.kinds.add(kind)
            try:
                out = enter(mode)
            except BaseException:
                rec._close()
                raise
            rec.live += kind == "dispatch"
            with mark(on):
                pass
            return out

        def __exit__(mode, *exc):
            try:
                with mark(off):
                    pass
                return leave(mode, *exc)
            finally:
                rec.live -= kind == "dispatch"
                rec._close()

        cls.__enter__, cls.__exit__ = __enter__, __exit__
        if kind == "function":
            handler = cls.__torch_function__
            compiling = torch.compiler.is_compiling

            def __torch_function__(mode, *args, **kwargs):
                if compiling():  # torch.compile tracing the mode (torch.cond's eager path): no range in its graph
                    return handler(mode, *args, **kwargs)
                with mark(FUNCTION):
                    if rec.live or _Quiet.switch is None:  # a probe's dispatch mode judges what runs inside
                        return handler(mode, *args, **kwargs)
                    with _QUIET:
                        return handler(mode, *args, **kwargs)

            cls.__torch_function__ = __torch_function__
        else:
            dispatch = cls.__torch_dispatch__

            def __torch_dispatch__(mode, *args, **kwargs):
                with mark(DISPATCH):
                    if _Quiet.switch is None:
                        return dispatch(mode, *args, **kwargs)
                    with _QUIET:
                        return dispatch(mode, *args, **kwargs)

            cls.__torch_dispatch__ = __torch_dispatch__
        cls._course_recorded = True

    def watch_function_modes(self, module: str) -> None:
        """Instrument every TorchFunctionMode class a probes module makes later, inside its functions too (15-08,
        16-01 and 16-04 define theirs in the probe)."""
        from torch.overrides import TorchFunctionMode
        self.modules.add(module)
        if "__init_subclass__" in vars(TorchFunctionMode):
            return
        _mark_control_flow()
        rec = self

        def __init_subclass__(cls, **kwargs):
            super(TorchFunctionMode, cls).__init_subclass__(**kwargs)
            if cls.__module__ in rec.modules:
                rec.instrument(cls, "function")

        _install(TorchFunctionMode, "__init_subclass__", classmethod(__init_subclass__))

    def reset(self) -> None:
        if self.depth:  # a window left open by the last call (an exception inside a probe): close it
            self.depth = 1
            self._close()
        self.hidden, self.passed, self.tampered, self.threads, self.kinds = [], [], [], [], set()

    def _open(self) -> None:
        self.depth += 1
        if self.depth > 1:
            return
        self.kinds = set()
        _mark_interpreter()
        self._opened = {n: _OPENED.get(n, 0) for n in _NAMES}
        self._tasks = _threads()
        import threading
        me = str(threading.get_native_id())
        # a thread started earlier (through Python, ctypes' pthread_create, anything but the worker's own and
        # PyTorch's pool, counted before any cell ran), woken in the window
        self._ran = _cpu_ns(t for t in self._tasks - self.baseline - {me}
                            if t in self.python_threads or not _driver_thread(t))
        self.ancestors = _ancestors()  # (a rank the probe forked has the worker above it)
        self._kids = _process_cpu(self._watched())  # a process forked earlier, fed in it
        self._pid0 = _last_pid() if self.sandboxed else None
        import torch
        from torch._C._profiler import _ExperimentalConfig
        from torch.autograd import ProfilerConfig, ProfilerState, _enable_profiler_legacy
        if torch.autograd._profiler_enabled():
            self.tampered.append("a profiler was already running when the check's op log started")
            return
        _enable_profiler_legacy(ProfilerConfig(ProfilerState.CPU, False, False, False, False, False,
                                               _ExperimentalConfig()))
        with _range(START):
            pass

    def _close(self) -> None:
        self.depth -= 1
        if self.depth > 0:
            return
        self.depth = 0
        from torch.autograd import _disable_profiler_legacy
        now = _threads()
        left = now - self._tasks
        if left and self._tasks and not any("a thread" in t for t in self.threads):
            self.threads.append(f"{len(left)} thread(s) started during the check's op log were still running at "
                                 "its end (work on another thread is out of its sight)")
        ran = _cpu_ns(self._ran)
        woke = [t for t, ns in self._ran.items() if t not in now or ran.get(t, ns) > ns]
        if woke:
            self.threads.append(f"{len(woke)} thread(s) the submission started earlier ran while the check's op "
                                 "log was open (work on another thread is out of its sight)")
        ran = _process_cpu(self._kids)
        woke = [p for p, ns in self._kids.items() if ran.get(p, ns + 1) > ns]
        if woke:
            self.tampered.append(f"{len(woke)} process(es) the submission forked earlier ran while the check's op "
                                 "log was open (work in another process is out of its sight)")
        made = _last_pid() if self._pid0 is not None else None
        if made is not None and made != self._pid0 and not any("task(s)" in t for t in self.threads):
            self.threads.append(f"{(made - self._pid0) % (1 << 22)} task(s) (threads or processes) were created in "
                                "the sandbox while the check's op log was open (work on another thread or process is "
                                "out of its sight)")
        try:
            records = _disable_profiler_legacy()
        except RuntimeError:
            self.tampered.append("the dispatcher's record of the check's op log was stopped during the call")
            return
        self._read(records)

    def _watched(self) -> set[str]:
        """The processes whose work a window watches: the worker's tree (its pristine copy's aside), and in a
        sandbox every process re-parented to its pid 1 (a grandchild whose parent exited) with its own tree."""
        me = str(os.getpid())
        roots = _children()
        if self.sandboxed:
            try:
                with open("/proc/1/task/1/children") as f:
                    roots |= set(f.read().split()) - self.ancestors - {me}
            except OSError:
                pass
        return _tree(roots, self.own_children | {me})

    # ------------------------------------------------------------ reading the record
    def _kind(self, name: str) -> str:
        """'op' for an op that reaches the Python dispatch key, 'composite' for one that decomposes above it
        (CompositeImplicitAutograd in any overload: a no-op ``to`` or ``contiguous`` reaches no mode at all, and
        its parts are judged instead), '' for an event that is no op (the autograd engine's, a user's range)."""
        kind = self._known.get(name)
        if kind is None:
            kind = ""
            if "::" in name and not name.startswith("course::"):
                import torch
                if name not in self._groups:  # read again for a new name: custom ops a submission registers count
                    self._groups = {}
                    for n in torch._C._dispatch_get_all_op_names():
                        self._groups.setdefault(n.split(".", 1)[0], []).append(n)
                overloads = self._groups.get(name)
                if overloads:
                    implicit = torch._C._dispatch_has_kernel_for_dispatch_key
                    kind = "composite" if any(implicit(n, "CompositeImplicitAutograd") for n in overloads) else "op"
            self._known[name] = kind
        return kind

    def _read(self, records) -> None:
        """Dispatch modes: an op (one that reaches the Python key) is judged where it is nested in no op and no
        mode's handling (ops that decompose above the mode and ranges that are no ops are passed through): it was
        seen when a ``PythonDispatchMode`` event lies inside it. Function modes (the calling thread only): any op
        nested in no op, in no range around the mode's ``__torch_function__`` and not in printing was called past
        the mode. Inside PyTorch's own tensor printing (which switches modes off itself, ``torch._tensor_str``)
        nothing is judged."""
        started = False
        marks = {v: (k, 1) for k, v in ON.items()} | {v: (k, -1) for k, v in OFF.items()}
        counted = dict.fromkeys(self._opened, 0)  # the judge's ranges in the record, by name
        for thread in records:
            stack: list[list] = []  # [name, judged op?, seen by a mode?, blocks judging below?, named?, shields?]
            below = 0  # entries on the stack under which nothing is judged (an op, a mode's handling, printing)
            shield = 0  # entries under which no op is judged for a function mode (an op, its handler, printing)
            judged: list | None = None
            whole: list | None = None  # the outermost op that decomposes above the mode, named for its parts
            calling = False  # the worker's calling thread (the one with the window's start marker)
            active = {"dispatch": 0, "function": 0}
            for ev in thread:
                kind = ev.kind()
                if kind == "push":
                    name = ev.name()
                    if name == START:
                        started = calling = True
                    if name in marks:
                        which, step = marks[name]
                        active[which] += step
                    if name in counted:
                        counted[name] += 1
                    if name == DISPATCH or name == PRINTING:
                        if name == DISPATCH and judged is not None:
                            judged[2] = True
                        stack.append([name, False, True, True, False, True])
                        below += 1
                        shield += 1
                        continue
                    if name == FUNCTION or name == COMPILED or name == INTERPRETER:
                        stack.append([name, False, True, False, False, True])
                        shield += 1
                        continue
                    what = self._kind(name)
                    dispatch = active["dispatch"] > 0 if calling else "dispatch" in self.kinds
                    entry = [name, what == "op" and below == 0 and dispatch, False, what == "op", False, bool(what)]
                    if what and calling and active["function"] > 0 and shield == 0 and name not in FUNCTION_EXEMPT \
                            and not name.startswith(COMMUNICATION):
                        self.passed.append(name)
                    if entry[1]:
                        judged = entry
                    elif what == "composite" and below == 0 and whole is None:
                        whole = entry
                    below += entry[3]
                    shield += entry[5]
                    stack.append(entry)
                elif kind == "pop" and stack:
                    entry = stack.pop()
                    below -= entry[3]
                    shield -= entry[5]
                    if entry is whole:
                        whole = None
                    if entry[1]:
                        judged = None
                        if not entry[2] and entry[0] not in EXEMPT:
                            if whole is None:
                                self.hidden.append(entry[0])
                            elif not whole[4]:
                                whole[4] = True
                                self.hidden.append(whole[0])
        if not started:
            self.tampered.append("the dispatcher's record of the check's op log was restarted during the call")
        lost = sorted(n for n, c in counted.items() if c < _OPENED.get(n, 0) - self._opened[n])
        if lost and started and not any("lost" in t for t in self.tampered):
            self.tampered.append(f"the record lost ranges the judge opened in it ({', '.join(lost[:3])}): recording "
                                 "was switched off for part of the call (ops run then leave no record)")
        forged = sorted(n for n, c in counted.items() if c > _OPENED.get(n, 0) - self._opened[n])
        if forged and not any("named like the judge's own" in t for t in self.tampered):
            self.tampered.append(f"the record holds ranges named like the judge's own ({', '.join(forged[:3])}) that "
                                 "the judge did not open: a range of that name was opened by other code to pass "
                                 "work off as PyTorch's own")

    def verdict(self, threads: bool = True) -> dict | None:
        """The error a call reports when an op ran out of its probe's sight (it fails the check), or None; with
        threads=False, threads started or woken in a window are not judged (a forked rank's process group's)."""
        if self.depth:
            self.tampered.append("the check's op log was never closed")
        if not self.hidden and not self.passed and not self.tampered and not (threads and self.threads):
            return None
        parts = []
        for ops, how in ((self.hidden, "the TorchDispatchMode the check had entered was switched off or bypassed "
                                       "around them (torch.utils._python_dispatch._disable_current_modes, an excluded "
                                       "Python dispatch key, a mode popped by hand)"),
                         (self.passed, "they were called past the TorchFunctionMode the check had entered "
                                       "(torch._C.DisableTorchFunction, the function-mode stack popped by "
                                       "hand)")):
            if not ops:
                continue
            counts: dict[str, int] = {}
            for n in ops:
                counts[n] = counts.get(n, 0) + 1
            named = ", ".join(f"{n} x{c}" if c > 1 else n for n, c in list(counts.items())[:6])
            more = f" and {len(counts) - 6} more" if len(counts) > 6 else ""
            parts.append(f"{len(ops)} PyTorch op(s) ran out of sight of the check's op log ({named}{more}): {how}")
        parts.extend(self.tampered + (self.threads if threads else []))
        return {"type": "HiddenFromProbe", "trace": "",
                "message": "; ".join(parts) + ". This check reads how the result is computed from that log, so the "
                           "call counts as failed (reported to the instructor)"}


def cell_shell():
    """The IPython shell whose namespace a submission's cells run in (it answers ``get_ipython()`` and the
    magics a cell's transformer writes): made once per process, without a history database or thread
    (nothing here reads a cell's history). A zygote makes it before it forks (``warm``), so each worker
    starts with an empty one instead of paying its start (imports, profile folder, sqlite) itself."""
    from IPython.core.interactiveshell import InteractiveShell
    if not InteractiveShell.initialized():
        from traitlets.config import Config
        cfg = Config()
        cfg.HistoryManager.enabled = False
        InteractiveShell.instance(config=cfg)
    return InteractiveShell.instance()


def warm() -> None:
    """What every worker would otherwise do first, done once by the zygote before it forks any: the cell
    shell, and inspect's table of module files (torch.library's registrations look up each caller's
    module: a first pass over every loaded module, about 0.3 s, in each worker of 16-01)."""
    import inspect
    cell_shell()
    inspect.getmodule(sys._getframe())


def _names_anywhere(code, name: str) -> bool:
    """Whether ``code`` or any function or class body inside it names ``name`` (an import, a global, an attribute)."""
    return name in code.co_names or any(_names_anywhere(c, name) for c in code.co_consts if isinstance(c, types.CodeType))


class Worker:
    def __init__(self, fd_in: int, fd_out: int):
        self.fd_in, self.fd_out = fd_in, fd_out
        self.ns: dict = {}
        self.load_errors: list = []
        self.probes: dict[str, types.ModuleType] = {}
        self.recorder = Recorder()  # the dispatcher's record while a probe's mode (dispatch or function) is entered
        self.watching = False  # the recorder's watch on threads and processes, opened by serve before any cell runs

    def load(self, cells: list[str]) -> dict:
        from IPython.core.inputtransformer2 import TransformerManager

        shell = cell_shell()
        self.ns = shell.user_ns
        self.ns["__name__"] = "__main__"
        tm = TransformerManager()
        for i, src in enumerate(cells, start=1):
            name = f"<cell {i}>"
            try:
                code = tm.transform_cell(src)
                linecache.cache[name] = (len(code), None, code.splitlines(True), name)
                exec(compile(code, name, "exec"), self.ns)
            except BaseException as exc:  # SystemExit and KeyboardInterrupt included: keep loading
                err = describe(exc)
                err["cell"] = i
                self.load_errors.append(err)
            finally:
                sys.stdout.flush()
        return {"defined": sorted(k for k in self.ns if not k.startswith("_")), "load_errors": self.load_errors}

    def add_probes(self, name: str, code: bytes, magic: bytes) -> None:
        """Probes compiled by the judge (``adapter.compile_probes``), run as a module of their own."""
        import importlib.util
        import marshal
        if magic != importlib.util.MAGIC_NUMBER:
            raise RuntimeError("the judge's Python writes other bytecode than this worker's")
        mod = types.ModuleType(f"probes_{name}")
        mod.__file__ = f"<probes {name}>"
        self.recorder.watch_function_modes(mod.__name__)
        compiled = marshal.loads(code)
        exec(compiled, mod.__dict__)
        if _names_anywhere(compiled, "run_fresh") and not pristine.started():
            # the clean copy for "fresh process" checks (course.judge.pristine), forked only where a topic's probes
            # use it (15-05): a fork of this process and its exit cost about 30 ms of CPU for each notebook loaded.
            # Before any submission code runs (probes come before the cells) and before PyTorch's thread pool
            # exists (watch_spawning makes it; a copy forked after it hangs in its first parallel op).
            pristine.start(close=(self.fd_in, self.fd_out))
        for cls in mode_classes(mod):
            self.recorder.instrument(cls)
        for cls in mode_classes(mod, "function"):
            self.recorder.instrument(cls, "function")
        self.probes[name] = mod

    def call(self, module: str, probe: str, kwargs: dict):
        fn = getattr(self.probes[module], probe)
        reset_globals()
        before = global_settings()
        self.recorder.reset()
        value = fn(self.ns, **kwargs)
        hidden = self.recorder.verdict()
        if hidden:
            raise HiddenFromProbe(hidden)
        leak = settings_leak(before, global_settings())
        if leak:
            raise GlobalStateLeak(leak)
        return value

    def _seal(self) -> tuple:
        """The judge's bindings in this process before any cell runs (course/judge/seal/)."""
        names = ("course.wire", "course.judge.worker", "course.judge.pristine", "course.judge.probelib",
                 "course.judge.seal")
        modules = [sys.modules[n] for n in names if n in sys.modules] + list(self.probes.values())
        return seal.take(modules, (self, self.recorder, _QUIET), list(_INSTALLED))

    def serve(self) -> None:
        # The seal's comparison is held here, in a running frame whose code no submission can swap; it and its
        # code are checked before each use, and what it finds changed is put back before the reply is written.
        seals, changed, code, defaults, installed, sealed, tampered = None, seal.changed, None, None, None, 0, None
        hidden: set = set()
        while True:
            try:
                msg = recv(self.fd_in)
            except EOFError:
                return
            op = msg.get("op")
            if op != "probes" and not self.watching:
                # the threads a submission starts are known from here on; after the probes, so that a pristine copy
                # is forked before PyTorch's thread pool exists
                self.recorder.watch_spawning()
                self.watching = True
            if op == "load" and seals is None:
                seals, installed = [self._seal()], _INSTALLED
                # names of the probes' own (their functions, classes, globals) are hidden: counted, never named
                hidden = {n for m in self.probes.values() for n in vars(m)} | \
                    {f"{v.__name__}" for m in self.probes.values() for v in vars(m).values() if hasattr(v, "__name__")}
                code, defaults, sealed = changed.__code__, changed.__defaults__, len(installed)
            try:
                if tampered is not None and op == "call":
                    reply = {"ok": False, "error": tampered}
                elif op == "load":
                    if msg.get("lock"):  # the kernel counts native calls here: torch's code held still first
                        self.locked = torch_code.lock()
                    value = self.load(msg["cells"])
                    if msg.get("lock"):  # the worker's claim; the judge reads the lock from outside (seal/code.held)
                        value["lock"] = self.locked
                    reply = {"ok": True, "value": value}
                elif op == "probes":
                    self.add_probes(msg["name"], msg["code"], msg.get("magic"))
                    reply = {"ok": True, "value": None}
                elif op == "call":
                    reply = {"ok": True, "value": self.call(msg["module"], msg["probe"], msg.get("kwargs", {}))}
                elif op == "exit":
                    return
                else:
                    reply = {"ok": False, "error": {"type": "ProtocolError", "message": f"unknown op {op!r}", "trace": ""}}
            except (GlobalStateLeak, HiddenFromProbe) as exc:
                reply = {"ok": False, "error": exc.err}
            except BaseException as exc:
                reply = {"ok": False, "error": describe(exc)}
            if seals is not None:
                found = []
                if changed.__code__ is not code or changed.__defaults__ is not defaults:
                    changed.__code__, changed.__defaults__ = code, defaults
                    found.append("the seal's own comparison")
                for one in seals:
                    found += changed(one)
                if len(installed) > sealed:  # wrappers the judge put in since (torch.distributed imported later)
                    seals.append(seal.take((), (), installed[sealed:], with_builtins=False))
                    sealed = len(installed)
                elif len(installed) < sealed:
                    found.append("the judge's list of its wrappers")
                if found and tampered is None:
                    shown = [f for f in found if f.split(".")[0].split(" ")[0] not in hidden]
                    more = len(found) - len(shown[:6])
                    named = ", ".join(shown[:6]) + (f"{' and ' if shown else ''}{more} more" if more and shown else
                                                    f"{more} of the hidden checks' own bindings" if more else "")
                    tampered = {"type": "HiddenFromProbe", "trace": "",
                                "message": f"the grader's own objects in your notebook's process were changed "
                                           f"({named}): this check and every later one cannot be judged, so they "
                                           f"count as failed (reported to the instructor)"}
                if tampered is not None and op == "call":
                    reply = {"ok": False, "error": tampered}
            sys.stdout.flush()
            sys.stderr.flush()
            try:
                send(self.fd_out, {"seq": msg.get("seq"), **reply})
            except Exception as exc:  # a value torch.save cannot write
                send(self.fd_out, {"seq": msg.get("seq"), "ok": False,
                                   "error": {"type": "UnsendableResult", "message": str(exc)[:300], "trace": ""}})


def serve(fd_in: int, fd_out: int) -> None:
    """Answer the judge on these descriptors until it says exit (stdout/stderr already go to the log)."""
    sys.stdin = open(os.devnull)
    os.environ.setdefault("MPLBACKEND", "Agg")
    import torch  # noqa: F401  (the protocol needs it)
    import warnings
    warnings.simplefilter("default")
    Worker(fd_in, fd_out).serve()


def main() -> None:
    # Keep the protocol on private descriptors; the submission's prints go to the log.
    fd_in, fd_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    serve(fd_in, fd_out)


if __name__ == "__main__":
    main()
