"""Probes for 15-07: run next to the submission, return plain data only (no comparisons here)."""
import contextlib
import numbers
import time
import types

import torch

from course.judge.probelib import get
from course.judge.probelib import signatures_of  # noqa: F401  (test_signatures.py)


def _plain(v):
    """A student's value as plain data: ints/floats/bools/str stay, 1-element tensors become numbers."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, numbers.Real):
        return float(v)
    if isinstance(v, torch.Tensor) and v.numel() == 1:
        return v.item()
    if hasattr(v, "item") and callable(v.item):  # numpy scalars
        try:
            return _plain(v.item())
        except Exception:
            pass
    return f"<{type(v).__name__}: {repr(v)[:80]}>"


def _standin(source, script=None, kernel_ms=0.0):
    """Install the CUDA stand-in (tests/15-07/cuda_standin.py, sent as text by the CPU variants of the
    GPU-marked checks); without a source, a null context (the real GPU)."""
    if source is None:
        return contextlib.nullcontext(None)
    mod = types.ModuleType("cuda_standin_15_07")
    exec(compile(source, "<cuda_standin>", "exec"), mod.__dict__)
    script = script or {}
    return mod.install(mod.ScriptBackend(script.get("snapshot"), script.get("stats")), kernel_ms=kernel_ms)


# ------------------------------------------------------------------ size rules
def size_rules(ns, sizes):
    r, p, s = get(ns, "round_size"), get(ns, "allocation_pool"), get(ns, "segment_size")
    return {"round": [_plain(r(n)) for n in sizes], "pool": [_plain(p(n)) for n in sizes],
            "segment": [_plain(s(n)) for n in sizes]}


# ------------------------------------------------------------------ allocator model
def simulate_raises(ns, trace):
    """simulate(trace) for a trace holding an op the text does not define: the exception it raised (its
    classes and message), or what it returned instead."""
    try:
        out = get(ns, "simulate")([tuple(op) for op in trace])
    except Exception as e:  # the student's code raised: report it, the judge decides
        return {"raised": [f"{c.__module__}.{c.__qualname__}" for c in type(e).__mro__], "message": str(e)[:300]}
    return {"raised": None, "returned": f"<{type(out).__name__}: {repr(out)[:200]}>"}


def simulate(ns, trace):
    ops = [tuple(op) for op in trace]
    out = get(ns, "simulate")(ops)
    if not isinstance(out, (list, tuple)):
        return {"error": f"simulate returned a {type(out).__name__}, not a list"}
    rows = []
    for row in out:
        if isinstance(row, dict):
            rows.append({str(k): _plain(v) for k, v in row.items()})
        else:
            rows.append(f"<{type(row).__name__}: {repr(row)[:80]}>")
    return {"rows": rows}


# ------------------------------------------------------------------ snapshots and OOM
def summarize(ns, segments):
    out = get(ns, "summarize_snapshot")([dict(s) for s in segments])
    if not isinstance(out, dict):
        return {"__error__": f"summarize_snapshot returned a {type(out).__name__}, not a dict"}
    return {str(k): _plain(v) for k, v in out.items()}


def will_oom_many(ns, cases):
    f = get(ns, "will_oom")
    return [_plain(f(c["segments"], c["device_free"], c["nbytes"])) for c in cases]


def snapshot_after_calls(ns, segments, requests):
    """The snapshot as it is after summarize_snapshot(segments), then after each will_oom(segments,
    device_free, nbytes) of requests (pairs), all called on the same list."""
    import json

    def plain(x):
        try:
            return json.loads(json.dumps(x))
        except (TypeError, ValueError):
            return f"<not plain data: {repr(x)[:200]}>"
    get(ns, "summarize_snapshot")(segments)
    after_summary = plain(segments)  # a copy
    after = []
    for device_free, nbytes in requests:
        get(ns, "will_oom")(segments, device_free, nbytes)
        after.append(plain(segments))
    return {"after_summary": after_summary, "after_will_oom": after}


def summarize_live_gpu(ns, sizes, free_every, standin=None, script=None):
    """Allocate real CUDA tensors, free some, and summarize torch.cuda.memory_snapshot() with the
    student's function; also return memory_stats read at the same moment. With ``standin`` (CPU CI),
    the same steps run against the CUDA stand-in, whose log of allocations is returned too."""
    with _standin(standin, script) as fake:
        keep = [torch.empty(n, dtype=torch.uint8, device="cuda") for n in sizes]
        for i in range(0, len(keep), free_every):
            keep[i] = None
        snap = torch.cuda.memory_snapshot()
        stats = torch.cuda.memory_stats()
        log = [list(op) for op in fake["backend"].log] if fake else None
    # plain data, with the block keys a real snapshot has beside size and state (address, requested_size)
    segs = [{"segment_type": s["segment_type"], "total_size": int(s["total_size"]),
             "allocated_size": int(s["allocated_size"]),
             "blocks": [{"size": int(b["size"]), "state": str(b["state"]),
                         **{k: int(b[k]) for k in ("address", "requested_size") if k in b}} for b in s["blocks"]]}
            for s in snap]
    got = summarize(ns, segs)
    del keep
    return {"summary": got, "segments": segs, "allocated": int(stats.get("allocated_bytes.all.current", 0)),
            "reserved": int(stats.get("reserved_bytes.all.current", 0)), "standin_log": log}


# ------------------------------------------------------------------ timing
def time_sleep(ns, sleep_ms, warmup, iters):
    calls, stamps = [0], []

    def fn():
        calls[0] += 1
        t0 = time.perf_counter()
        time.sleep(sleep_ms / 1000)
        stamps.append((t0, time.perf_counter()))
    ms = get(ns, "time_op")(fn, warmup=warmup, iters=iters, device="cpu")
    return {"ms": _plain(ms), "calls": calls[0], "stamps": stamps, "mro": _mro(ms)}


def _mro(v):
    """The classes of the value time_op returned, as names (_plain turns a 0-d tensor into a float: the type
    the text asks for is judged on these)."""
    return [f"{c.__module__}.{c.__qualname__}" for c in type(v).__mro__]


def time_pattern(ns, pattern_ms, warmup, as_device=False, device="cpu", positional=False):
    """time_op on an fn whose k-th call sleeps pattern_ms[k] (the warm-up calls first; 0: returns at once,
    no sleep); iters = the rest. device: the CPU's spelling ("cpu" or "cpu:0"); as_device: pass it as
    torch.device(device) instead. positional: time_op(fn, warmup, iters, device), by position."""
    calls, stamps = [0], []

    def fn():
        k = min(calls[0], len(pattern_ms) - 1)
        calls[0] += 1
        t0 = time.perf_counter()
        if pattern_ms[k]:
            time.sleep(pattern_ms[k] / 1000)
        stamps.append((t0, time.perf_counter()))
    args = (warmup, len(pattern_ms) - warmup, torch.device(device) if as_device else device)
    time_op = get(ns, "time_op")
    ms = time_op(fn, *args) if positional else time_op(fn, warmup=args[0], iters=args[1], device=args[2])
    return {"ms": _plain(ms), "calls": calls[0], "stamps": stamps}



def time_count(ns, kwargs, args=()):
    """time_op(fn, *args, **kwargs) on an fn that only counts its calls: kwargs leaves out the arguments whose
    defaults are being tried; args passes warmup, iters and device by position, as the signature allows.
    Then the same call again, on the same fn: calls_again counts the calls of that second time_op."""
    calls = [0]

    def fn():
        calls[0] += 1
    ms = get(ns, "time_op")(fn, *args, **kwargs)
    first = calls[0]
    get(ns, "time_op")(fn, *args, **kwargs)
    return {"ms": _plain(ms), "calls": first, "calls_again": calls[0] - first}

_CLOCKS = {name: getattr(time, name) for name in ("perf_counter", "perf_counter_ns", "time", "time_ns", "monotonic",
                                                  "monotonic_ns", "process_time", "process_time_ns", "thread_time",
                                                  "thread_time_ns")}


def time_clocks(ns, sleep_ms, warmup, iters, standin=None):
    """Which of the time module's clocks time_op itself reads (calls made inside fn are not counted). Seen
    through sys.setprofile's c_call events, so a clock imported under another name is seen too. With
    ``standin``, the CUDA stand-in is installed (a machine with a GPU): clocks its fakes read are not counted,
    and ``cuda`` lists the stand-in's timing entry points time_op called (events, synchronize)."""
    import sys
    read, inside, cuda = set(), [False], set()
    by_id = {id(f): name for name, f in _CLOCKS.items()}
    timing = {"record": "torch.cuda.Event.record", "elapsed_time": "torch.cuda.Event.elapsed_time",
              "_synchronize": "torch.cuda.synchronize"}

    def profiler(frame, event, arg):
        if inside[0]:
            return
        if frame.f_code.co_filename == "<cuda_standin>":
            if event == "call" and frame.f_code.co_name in timing and \
                    (frame.f_back is None or frame.f_back.f_code.co_filename != "<cuda_standin>"):
                cuda.add(timing[frame.f_code.co_name])
            return
        if event == "c_call" and id(arg) in by_id:
            read.add(by_id[id(arg)])

    def fn():
        inside[0] = True
        try:
            time.sleep(sleep_ms / 1000)
        finally:
            inside[0] = False
    with _standin(standin):
        previous = sys.getprofile()
        sys.setprofile(profiler)
        try:
            ms = get(ns, "time_op")(fn, warmup=warmup, iters=iters, device="cpu")
        finally:
            sys.setprofile(previous)
    return {"ms": _plain(ms), "clocks": sorted(read), "cuda": sorted(cuda)}


def time_grad_mode(ns, enabled, warmup, iters, flip_last=False, device="cpu", standin=None):
    """time_op on an fn that records, per call, (grad enabled, inference mode), called under
    torch.set_grad_enabled(enabled); also the grad mode right after time_op returns. flip_last: fn's last
    call switches the grad mode (torch.set_grad_enabled(not enabled)) after recording. device="cuda" with
    ``standin``: time_op's CUDA path, against the CUDA stand-in."""
    seen = []

    def fn():
        seen.append((torch.is_grad_enabled(), torch.is_inference_mode_enabled()))
        if flip_last and len(seen) == warmup + iters:
            torch.set_grad_enabled(not enabled)
    with _standin(standin), torch.set_grad_enabled(enabled):
        ms = get(ns, "time_op")(fn, warmup=warmup, iters=iters, device=device)
        after = torch.is_grad_enabled()
    return {"ms": _plain(ms), "seen": seen, "after": after}


def time_caller_state(ns, threads, seed, warmup, iters, last_threads=None, device="cpu", standin=None,
                      host_rngs=False):
    """time_op on an fn that records, per call, torch.get_num_threads() and one float64 draw of the global
    RNG, called with torch.set_num_threads(threads) and torch.manual_seed(seed); also the thread count and
    the next draw right after time_op returns. last_threads: fn's last call sets that thread count after
    recording. The worker's own thread count and RNG are restored. device="cuda" with ``standin``: time_op's
    CUDA path, against the CUDA stand-in; there fn also draws torch.randn(2, device="cuda") from the default
    CUDA generator (seeded with torch.cuda.manual_seed(seed)), and cuda_seen / cuda_after hold that generator's
    offset before each call and after time_op returns. host_rngs: the caller also seeds Python's `random`
    and NumPy's global generator with ``seed``, fn draws one value from each per call (host_seen), and
    host_after holds the caller's next draws from both after time_op returns (NumPy's entries are None where
    NumPy is missing); the worker's own states are restored."""
    import random
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - NumPy comes with the course's environment
        np = None
    old_threads, old_rng = torch.get_num_threads(), torch.get_rng_state()
    old_py = random.getstate()
    old_np = np.random.get_state() if np is not None else None
    seen, cuda_seen, fake, host_seen = [], [], [None], []

    def host_draw():
        return (random.random(), float(np.random.random_sample()) if np is not None else None)

    def fn():
        seen.append((torch.get_num_threads(), torch.rand(1, dtype=torch.float64).item()))
        if host_rngs:
            host_seen.append(host_draw())
        if fake[0] is not None:
            cuda_seen.append(fake[0]["rng"][1])
            torch.randn(2, device="cuda")
        if last_threads is not None and len(seen) == warmup + iters:
            torch.set_num_threads(last_threads)
    try:
        torch.set_num_threads(threads)
        torch.manual_seed(seed)
        if host_rngs:
            random.seed(seed)
            if np is not None:
                np.random.seed(seed % 2**32)
        with _standin(standin) as fake[0]:
            if fake[0] is not None:
                torch.cuda.manual_seed(seed)
            ms = get(ns, "time_op")(fn, warmup=warmup, iters=iters, device=device)
            cuda_after = list(fake[0]["rng"]) if fake[0] is not None else None
        after = (torch.get_num_threads(), torch.rand(1, dtype=torch.float64).item())
        host_after = host_draw() if host_rngs else None
    finally:
        torch.set_num_threads(old_threads)
        torch.set_rng_state(old_rng)
        random.setstate(old_py)
        if np is not None:
            np.random.set_state(old_np)
    return {"ms": _plain(ms), "seen": seen, "after": after, "cuda_seen": cuda_seen, "cuda_after": cuda_after,
            "host_seen": host_seen, "host_after": host_after}


def time_matmul_gpu(ns, n, warmup, iters, seed, standin=None, kernel_ms=0.0, device="cuda", as_device=False,
                    side_stream=False):
    """time_op on a matmul queued on CUDA; with ``standin`` (CPU CI) every a @ b queues kernel_ms of work
    on the stand-in's current stream and returns at once, as a kernel launch does. as_device: pass device as
    torch.device(device) instead of the string. side_stream: call time_op inside
    ``with torch.cuda.stream(torch.cuda.Stream())``, so fn's work goes to that stream, not the default one.
    empty_cache: how many times torch.cuda.empty_cache() was called during time_op (stand-in only)."""
    if as_device:
        device = torch.device(device)
    with _standin(standin, kernel_ms=kernel_ms) as fake:
        g = torch.Generator(device="cuda").manual_seed(seed)
        a = torch.randn(n, n, device="cuda", generator=g)
        b = torch.randn(n, n, device="cuda", generator=g)
        calls = [0]

        def fn():
            calls[0] += 1
            return a @ b
        scope = torch.cuda.stream(torch.cuda.Stream()) if side_stream else contextlib.nullcontext()
        with scope:
            ms = get(ns, "time_op")(fn, warmup=warmup, iters=iters, device=device)
        launches = sum(st.launches for st in fake["streams"]) if fake else None
        emptied = sum(1 for op in fake["backend"].log if op[0] == "empty_cache") if fake else None
    return {"ms": _plain(ms), "calls": calls[0], "launches": launches, "mro": _mro(ms), "empty_cache": emptied}
