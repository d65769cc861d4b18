"""Task cuda_timing: time_op measures milliseconds per call, after warm-up, synchronising on CUDA."""
import importlib.util
import random
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from course.judge.expect import expect, fail

_spec = importlib.util.spec_from_file_location("_15_07_common_t", Path(__file__).with_name("_common.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

pytestmark = pytest.mark.task("cuda_timing")


def _num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _measured_window(r, warmup, iters):
    """(lowest, highest) mean ms a correct time_op can report, from the probe's own time stamps of each call:
    at least the timed calls' summed durations, at most the span from the end of the warm-up to the end of
    the last call (plus 3 % and 1 ms for reading the clock)."""
    st = r.get("stamps") or []
    if len(st) != warmup + iters:
        return None
    timed = st[warmup:]
    lo = sum(e - b for b, e in timed) / iters * 1000
    start = st[warmup - 1][1] if warmup else timed[0][0]
    hi = (timed[-1][1] - start) / iters * 1000
    return 0.98 * lo, 1.03 * hi + 1.0


def _time_pattern(student, pattern, warmup, **kw):
    """The probe's reply, with the seconds the judge itself measured around the call (the stamps of fn's
    calls, read in the worker, must fit inside them)."""
    t0 = time.perf_counter()
    r = student.call("time_pattern", pattern_ms=pattern, warmup=warmup, **kw)
    return r, time.perf_counter() - t0


def _slept_as_asked(r, pattern, what, wall):
    """Each call's time stamps span at least the sleep the judge asked of that call (time.sleep never
    returns early): the stamps belong to this run of fn, not to another. They are the worker's word, and
    _measured_window's upper bound comes from them, so they are held to what the judge knows: one call after
    the other, all of them inside the time the judge measured around the probe call (``wall`` seconds)."""
    st = r.get("stamps") or []
    expect(len(st) == len(pattern), f"{what}: fn should have been called {len(pattern)} times, it was called "
                                    f"{len(st)} times")
    expect(all(isinstance(s, (tuple, list)) and len(s) == 2 and all(type(t) is float for t in s) for s in st),
           f"{what}: the time stamps fn recorded of its calls were changed (they are no longer pairs of floats); "
           f"time_op must leave fn and what it records alone")
    short = [k for k, ((b, e), ms) in enumerate(zip(st, pattern)) if e - b < 0.999 * ms / 1000]
    expect(not short, f"{what}: calls {short} of fn returned sooner than they sleep")
    order = [k for k in range(1, len(st)) if not st[k - 1][1] <= st[k][0]]
    expect(not order, f"{what}: by the time stamps fn recorded, call {order[0] if order else 0} of fn began before "
                      f"the call before it returned; time_op must call fn one call after the other and leave what "
                      f"fn records alone")
    span = st[-1][1] - st[0][0] if st else 0.0
    expect(span <= wall, f"{what}: fn's calls span {span * 1000:.1f} ms by the time stamps fn recorded, longer than "
                         f"the {wall * 1000:.1f} ms the grader measured around the whole call of time_op; time_op "
                         f"must leave fn and what it records alone")


def test_sleep_in_milliseconds(student, gen):
    """time_op reports the mean milliseconds per timed call for a function that sleeps, with device given as
    'cpu:0' (the CPU spelled with its index is the CPU: time.perf_counter, no CUDA)"""
    pattern = torch.randint(10, 31, (5,), generator=gen).tolist()  # one warm-up call, then 4 timed ones
    ms = sum(pattern[1:]) / 4
    what = f"time_op(fn, warmup=1, iters=4, device='cpu:0') for an fn whose calls sleep {pattern} ms"
    r, wall = _time_pattern(student, pattern, 1, device="cpu:0")
    expect(_num(r["ms"]), f"{what}: should return a number, got {r['ms']!r}")
    _slept_as_asked(r, pattern, what, wall)
    win = _measured_window(r, 1, 4) or (0.85 * ms, 2.5 * ms + 10)
    expect(win[0] <= r["ms"] <= win[1],
           f"{what}: the 4 timed calls took {win[0] / 0.98:.2f} ms each on average (measured around each call), so "
           f"the result should be in [{win[0]:.2f}, {win[1]:.2f}] milliseconds per call; got {r['ms']!r}")


@pytest.mark.task("cuda_timing", weight=0.1)  # its right answer is a constant (a float): worth little
def test_returns_float(student):
    """time_op returns a float (not a tensor or an int), on the CPU and on CUDA (stand-in)"""
    r = student.call("time_sleep", sleep_ms=1, warmup=0, iters=2)
    g = student.call("time_matmul_gpu", n=64, warmup=0, iters=2, seed=0, standin=C.standin_source(), kernel_ms=1.0)
    for what, res in (("device='cpu'", r), ("device='cuda' (CUDA stand-in)", g)):
        mro = res.get("mro") if isinstance(res.get("mro"), list) else []
        expect(type(res["ms"]) is float and "builtins.float" in mro,
               f"time_op(fn, warmup=0, iters=2, {what}) should return a float (milliseconds), got {res['ms']!r} "
               f"of type {mro[0] if mro else type(res['ms']).__name__}")


def test_warmup_excluded_and_call_count(student, gen):
    """time_op calls fn warmup + iters times and leaves the warm-up calls out of the average"""
    warmup, iters = (int(v) for v in torch.randint(2, 7, (2,), generator=gen))
    slow = torch.randint(100, 161, (warmup,), generator=gen).tolist()  # the warm-up calls are slow
    fast = torch.randint(3, 13, (iters,), generator=gen).tolist()
    what = (f"time_op(fn, warmup={warmup}, iters={iters}, device=torch.device('cpu')) where the warm-up calls sleep "
            f"{slow} ms and later ones {fast} ms")
    r, wall = _time_pattern(student, slow + fast, warmup, as_device=True)
    expect(r["calls"] == warmup + iters, f"{what}: fn should be called {warmup} + {iters} = {warmup + iters} times, "
                                         f"it was called {r['calls']} times")
    _slept_as_asked(r, slow + fast, what, wall)
    win = _measured_window(r, warmup, iters) or (4, 40)
    expect(_num(r["ms"]) and win[0] <= r["ms"] <= win[1],
           f"{what}: the {iters} timed calls took {win[0] / 0.98:.2f} ms each on average, so the result should be in "
           f"[{win[0]:.2f}, {win[1]:.2f}] (warm-up calls are not timed); got {r['ms']!r}")


def test_call_count_with_defaults_and_no_warmup(student, gen):
    """time_op's defaults are warmup=3 and iters=10, and warmup=0 means no untimed call: fn runs warmup + iters times;
    warmup, iters and device may also be passed by position, as the signature time_op(fn, warmup, iters, device) allows;
    a second time_op on the same fn warms it up again (each call of time_op makes warmup + iters calls)"""
    k = int(torch.randint(1, 6, (1,), generator=gen))
    w = int(torch.randint(1, 4, (1,), generator=gen))
    cases = [({}, (), 3 + 10, "time_op(fn) (the defaults warmup=3, iters=10, device='cpu')"),
             ({"iters": k}, (), 3 + k, f"time_op(fn, iters={k}) (the default warmup=3)"),
             ({"warmup": 0, "iters": k, "device": "cpu"}, (), k, f"time_op(fn, warmup=0, iters={k}, device='cpu')"),
             ({}, (w, k, "cpu"), w + k, f"time_op(fn, {w}, {k}, 'cpu') (arguments by position, in the order of the "
                                        f"signature the text gives)")]
    for kwargs, args, want, what in cases:
        r = student.call("time_count", kwargs=kwargs, args=list(args))
        expect(r["calls"] == want, f"{what} for an fn that returns at once: fn should be called exactly {want} times "
                                   f"(warmup + iters), it was called {r['calls']} times")
        expect(r["calls_again"] == want,
               f"{what}, called a second time on the same fn (which returns at once): fn should again be called "
               f"exactly {want} times, it was called {r['calls_again']} times; the text: time_op calls fn() warmup "
               f"times untimed, then iters times timed - every time it is called, so no state kept from an earlier "
               f"call (a warm-up done once per fn) changes that")


def test_mean_of_uneven_calls(student, gen):
    """time_op returns the mean over the timed calls, not the median or the fastest, when call times differ, to
    the fraction of a millisecond (calls of 0.5-3.5 ms and 20.5 ms; time_op(fn, 1, 5, torch.device('cpu:0')), the
    arguments by position in the signature's order warmup, iters, device)"""
    # Half-millisecond calls: a mean of per-call times kept in whole milliseconds (int(), floor) loses about
    # 0.5 ms a call, 8 % of this mean, against the 2 % the window allows below the measured mean.
    timed = [k + 0.5 for k in torch.randint(0, 4, (4,), generator=gen).tolist()] + [20.5]
    slow = int(torch.randint(0, 5, (1,), generator=gen))
    timed[slow], timed[-1] = timed[-1], timed[slow]  # the slow call at a random place
    r, wall = _time_pattern(student, [3] + timed, 1, as_device=True, device="cpu:0", positional=True)
    what = (f"time_op(fn, 1, 5, torch.device('cpu:0')) (by position: warmup=1, iters=5, in the order of the "
            f"signature time_op(fn, warmup, iters, device)) where the warm-up call sleeps 3 ms and the timed calls "
            f"sleep {timed} ms (torch.device('cpu:0') is the CPU)")
    _slept_as_asked(r, [3] + timed, what, wall)
    win = _measured_window(r, 1, 5) or (4.0, 20.0)
    expect(_num(r["ms"]) and win[0] <= r["ms"] <= win[1],
           f"{what}: they took {win[0] / 0.98:.2f} ms each on average, so the mean per call should be in "
           f"[{win[0]:.2f}, {win[1]:.2f}]; got {r['ms']!r}")


def test_mean_of_fast_calls(student, gen):
    """time_op returns the mean of calls far shorter than a millisecond as it measured it, not rounded or truncated:
    for an fn that returns at once, at least the time its timed calls took by their own time stamps (device='cpu')"""
    warmup = int(torch.randint(1, 4, (1,), generator=gen))
    iters = int(torch.randint(100, 201, (1,), generator=gen))
    pattern = [0] * (warmup + iters)
    what = f"time_op(fn, warmup={warmup}, iters={iters}, device='cpu') for an fn that returns at once"
    r, wall = _time_pattern(student, pattern, warmup)
    _slept_as_asked(r, pattern, what, wall)
    win = _measured_window(r, warmup, iters)
    lo = win[0] / 0.98 if win else 0.0
    # The lower bound is exact (the clock time_op reads around the timed calls spans them all); the upper one
    # allows 1 ms for a loaded machine, as the other checks do.
    expect(_num(r["ms"]) and win is not None and win[0] <= r["ms"] <= win[1],
           f"{what}: its {iters} timed calls took {lo * 1000:.3f} microseconds each on average by fn's own time "
           f"stamps, so the mean per call should be in [{win[0] if win else 0:.6f}, {win[1] if win else 0:.6f}] "
           f"milliseconds; got {r['ms']!r} (the text: time_op returns the mean milliseconds per call as a float; "
           f"a mean rounded to a few decimals or truncated loses calls this short)")


def test_cpu_clock_is_perf_counter(student, gen):
    """On the CPU time_op reads time.perf_counter (the text's clock), not time.time or another clock, also on a
    machine with a GPU (CUDA stand-in): `device`, not the machine, picks the clock"""
    warmup, iters = (int(v) for v in torch.randint(1, 3, (2,), generator=gen))
    for standin in (None, C.standin_source()):
        r = student.call("time_clocks", sleep_ms=1, warmup=warmup, iters=iters, standin=standin)
        what = (f"time_op(fn, warmup={warmup}, iters={iters}, device='cpu')"
                + (" on a machine with a GPU (CUDA stand-in: torch.cuda.is_available() is True)" if standin else ""))
        other = [c for c in r["clocks"] if c not in ("perf_counter", "perf_counter_ns")]
        expect(not other, f"{what} read time.{', time.'.join(other)}: for the CPU the text says time.perf_counter(), "
                          f"the monotonic high-resolution clock (time.time() is the time of day, which can jump)")
        used = f" (it used {', '.join(r['cuda'])} instead)" if r.get("cuda") else ""
        expect(len(other) < len(r["clocks"]), f"{what} never read time.perf_counter(){used}; the text: `device` is a "
                                              f"string or torch.device; for CUDA use events ..., for the CPU use "
                                              f"time.perf_counter()")


@pytest.mark.gpu
def test_gpu_timing_synchronizes(student, gen):
    """on CUDA, time_op agrees with CUDA-event timing of a large matmul (it must wait for the GPU)"""
    n = 4096
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(n, n, device="cuda", generator=g)
    b = torch.randn(n, n, device="cuda", generator=g)
    for _ in range(3):
        a @ b
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(10):
        a @ b
    end.record()
    torch.cuda.synchronize()
    want = start.elapsed_time(end) / 10
    r = student.call("time_matmul_gpu", n=n, warmup=3, iters=10, seed=seed)
    expect(_num(r["ms"]) and 0.5 * want <= r["ms"] <= 3 * want + 0.5,
           f"time_op(lambda: a @ b, warmup=3, iters=10, device='cuda') for {n}x{n} float32 matrices: CUDA events "
           f"measure {want:.3f} ms per call, got {r['ms']!r} (far less means the GPU work was not waited for)")


# The CPU variant of the check above: the same probe with the CUDA stand-in installed in the student's
# process. Each a @ b queues kernel_ms of work on the stand-in's current stream and returns at once, as a
# launch does; events and synchronize see the queued work, a wall clock read without synchronizing does not.
# More warm-up than timed calls: a clock started before the warm-up work is done is off by 3x. The stand-in's
# clock makes the answer exact (events: the 4 calls' queued work to the microsecond; a synchronized wall clock:
# that plus the launches), so the lower bound is tight: a half-millisecond kernel tells a mean floored to whole
# milliseconds. One of the four runs (drawn) is made with a side stream current, where fn's work goes.
def test_cuda_timing_on_standin(student, gen):
    """on CUDA (stand-in), time_op waits for queued work: ms per call of an asynchronous matmul, with device
    given as the strings 'cuda' and 'cuda:0' and as torch.device('cuda') and torch.device('cuda:0'), to the
    fraction of a millisecond; with the events (or synchronize) on the current stream, where fn's work goes
    (one run inside `with torch.cuda.stream(s)`); and without emptying the allocator's cache"""
    # four runs, other work each time, in a random order: every spelling the text allows (a string or a
    # torch.device, with or without an index) names CUDA
    forms = [("cuda", False), ("cuda:0", False), ("cuda", True), ("cuda:0", True)]
    order = torch.randperm(len(forms), generator=gen).tolist()
    kernels = torch.randint(5, 41, (len(forms),), generator=gen).tolist()
    on_side = int(torch.randint(0, len(forms), (1,), generator=gen))  # drawn after the old draws
    for run, (k, kernel_ms) in enumerate(zip(order, kernels)):
        kernel_ms += 0.5
        name, as_device = forms[k]
        side = run == on_side
        shown = f"torch.device({name!r})" if as_device else repr(name)
        r = student.call("time_matmul_gpu", n=4096, warmup=8, iters=4, seed=0, standin=C.standin_source(),
                         kernel_ms=float(kernel_ms), device=name, as_device=as_device, side_stream=side)
        what = (f"time_op(fn, warmup=8, iters=4, device={shown}) where each call of fn queues {kernel_ms} ms of "
                f"GPU work and returns at once (CUDA stand-in)"
                + (", called inside `with torch.cuda.stream(s)` (s = torch.cuda.Stream(), so fn's work goes to s, "
                   "the current stream, not the default stream)" if side else ""))
        expect(_num(r["ms"]) and 0.995 * kernel_ms <= r["ms"] <= 1.6 * kernel_ms + 1,
               f"{what}: expected {kernel_ms} ms per call (at least {0.995 * kernel_ms:.3f}), got {r['ms']!r} "
               f"(far less: the queued work was not waited for"
               + (", or the events were not recorded on the current stream" if side else "")
               + f"; {kernel_ms - 0.5:.0f}: the mean rounded down to whole milliseconds; about 3x: the clock "
                 f"started before the warm-up work was done; about 4x: the total, not the mean)")
        expect(r.get("empty_cache") == 0,
               f"{what}: time_op called torch.cuda.empty_cache() {r.get('empty_cache')} time(s); the text: it "
               f"leaves the caching allocator alone (emptying its cache makes the timed calls pay the cudaMallocs "
               f"the warm-up is there to take)")


def test_fn_runs_in_the_callers_grad_mode(student, gen):
    """time_op calls fn as the caller would: in the caller's grad mode (enabled or disabled), and leaves it as fn
    left it (as it was, or switched by fn's last call); on the CPU and on CUDA (stand-in)"""
    warmup, iters = (int(v) for v in torch.randint(1, 4, (2,), generator=gen))
    # The sentence holds for every device: each mode on the CPU path and on the CUDA path (the stand-in), so a
    # no_grad or enable_grad in one branch of time_op only is seen too.
    for device in ("cpu", "cuda"):
        modes = [True, False] if int(torch.randint(0, 2, (1,), generator=gen)) else [False, True]
        flip_run = int(torch.randint(0, 2, (1,), generator=gen))  # in one of the two runs fn's last call switches it
        for run, enabled in enumerate(modes):
            flip = run == flip_run
            extra = {"device": "cuda", "standin": C.standin_source()} if device == "cuda" else {}
            r = student.call("time_grad_mode", enabled=enabled, warmup=warmup, iters=iters, flip_last=flip, **extra)
            what = (f"time_op(fn, warmup={warmup}, iters={iters}, device={device!r}"
                    f"{' (CUDA stand-in)' if device == 'cuda' else ''}) called with gradients "
                    f"{'enabled' if enabled else 'disabled (under torch.no_grad())'}"
                    + (f", for an fn whose last call runs torch.set_grad_enabled({not enabled})" if flip else ""))
            seen = r["seen"]
            expect(len(seen) == warmup + iters, f"{what}: fn should be called {warmup + iters} times, it was called "
                                                f"{len(seen)} times")
            wrong = [k for k, (grad, inference) in enumerate(seen) if grad is not enabled or inference]
            expect(not wrong, f"{what}: calls {wrong} of fn ran with gradients "
                              f"{'disabled or in inference mode' if enabled else 'enabled or in inference mode'}; "
                              f"time_op must run fn in the caller's grad mode (no torch.no_grad, enable_grad or "
                              f"inference_mode around it), or it times a different computation")
            want = enabled is not flip
            expect(r["after"] is want, f"{what}: after time_op returned, gradients were "
                                       f"{'enabled' if r['after'] else 'disabled'}, expected "
                                       f"{'enabled' if want else 'disabled'}; time_op must not change the grad mode "
                                       f"itself (nor restore it after fn): the caller finds it as fn left it")


def test_fn_runs_with_the_callers_threads_and_rng(student, gen):
    """time_op calls fn as the caller would: with the caller's thread count and random-number state (no
    set_num_threads or manual_seed of its own), and leaves both as fn left them (fn's last call sets another
    thread count); on the CPU and on CUDA (stand-in), where the GPU's generator is read too"""
    for device in ("cpu", "cuda"):  # the CPU path and the CUDA path (the stand-in): the sentence holds for both
        _callers_threads_and_rng(student, gen, device)


def _callers_threads_and_rng(student, gen, device):
    warmup, iters = (int(v) for v in torch.randint(1, 4, (2,), generator=gen))
    threads = int(torch.randint(3, 7, (1,), generator=gen))  # not the worker's own count (1 or 2 on CI)
    seed = int(torch.randint(1, 2**31 - 1, (1,), generator=gen))
    g = torch.Generator().manual_seed(seed)
    draws = [torch.rand(1, dtype=torch.float64, generator=g).item() for _ in range(warmup + iters + 1)]
    last = threads + int(torch.randint(1, 3, (1,), generator=gen))  # fn leaves a different count behind
    extra = {"device": "cuda", "standin": C.standin_source()} if device == "cuda" else {}
    r = student.call("time_caller_state", threads=threads, seed=seed, warmup=warmup, iters=iters, last_threads=last,
                     host_rngs=True, **extra)
    what = (f"time_op(fn, warmup={warmup}, iters={iters}, device={device!r}"
            f"{' (CUDA stand-in)' if device == 'cuda' else ''}) called after torch.set_num_threads({threads}) "
            f"and torch.manual_seed({seed}), for an fn that reads torch.get_num_threads() and draws torch.rand(1), and "
            f"whose last call runs torch.set_num_threads({last})")
    seen = r["seen"]
    expect(len(seen) == warmup + iters, f"{what}: fn should be called {warmup + iters} times, it was called "
                                        f"{len(seen)} times")
    other = [(k, t) for k, (t, _) in enumerate(seen) if t != threads]
    expect(not other, f"{what}: call {other[0][0] if other else 0} of fn ran with {other[0][1] if other else 0} "
                      f"threads, not the caller's {threads}; time_op must not change the thread count "
                      f"(torch.set_num_threads) around fn, or it times a different computation")
    got = [d for _, d in seen]
    expect(got == draws[:len(got)], f"{what}: fn's calls drew {got}, but called by the caller one after the other "
                                    f"they draw {draws[:len(got)]}; time_op must not seed or draw from the random "
                                    f"number generator itself")
    expect(r["after"][0] == last, f"{what}: after time_op returned, torch.get_num_threads() was {r['after'][0]}, "
                                  f"not the {last} fn left; time_op must not change the thread count itself (nor "
                                  f"restore it after fn): the caller finds it as fn left it")
    expect(r["after"][1] == draws[len(got)], f"{what}: the caller's next draw after time_op returned was "
                                             f"{r['after'][1]}, expected {draws[len(got)]} (the one after fn's "
                                             f"{len(got)} draws); time_op must leave the random-number state as "
                                             f"fn left it")
    # The host's other generators are random-number state too: Python's `random` and NumPy's global one, seeded
    # by the caller with the same seed; fn draws one value from each per call.
    py, npg = random.Random(seed), np.random.RandomState(seed % 2**32)
    host = [(py.random(), float(npg.random_sample())) for _ in range(warmup + iters + 1)]
    hs = [tuple(h) for h in r.get("host_seen") or []]
    if any(h[1] is None for h in hs):  # no NumPy in the student's process: Python's `random` alone
        host = [(h[0], None) for h in host]
    ha = tuple(r.get("host_after") or ())
    expect(len(hs) < len(host) and hs == host[:len(hs)] and ha == host[len(hs)],
           f"{what}, the caller having also run random.seed({seed}) and numpy.random.seed({seed}), fn drawing "
           f"(random.random(), numpy.random.random_sample()) per call: fn's calls drew {hs} and the caller's next draw "
           f"after time_op returned was {ha}; called by the caller one after the other they draw {host[:len(hs)]} "
           f"and then {host[min(len(hs), len(host) - 1)]}; time_op must not seed, save/restore or draw from "
           f"Python's or NumPy's random number generator itself either (the caller's random-number state)")
    if device == "cuda":  # the GPU's generator too: fn draws 2 values from it per call (CUDA stand-in)
        want = [2 * k for k in range(warmup + iters)]
        expect(r["cuda_seen"] == want,
               f"{what}, fn also drawing torch.randn(2, device='cuda') after torch.cuda.manual_seed({seed}): "
               f"before its calls the default CUDA generator had drawn {r['cuda_seen']} values, expected {want} "
               f"(one call after the other); time_op must not seed, save/restore or draw from the GPU's "
               f"random-number generator itself")
        expect(r["cuda_after"] == [seed, 2 * (warmup + iters)],
               f"{what}, fn also drawing torch.randn(2, device='cuda') after torch.cuda.manual_seed({seed}): after "
               f"time_op returned the default CUDA generator was (seed, values drawn) = {tuple(r['cuda_after'] or ())}, "
               f"expected ({seed}, {2 * (warmup + iters)}), as fn's calls left it; time_op must leave the GPU's "
               f"random-number state as fn left it (no torch.cuda.set_rng_state or fork_rng around the calls)")
