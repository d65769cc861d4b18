"""Hidden checks for find_leaks and memory_growth (15-09, judge side)."""
import functools
import gc
import runpy
import weakref
import zlib
from pathlib import Path

import pytest
import torch

from course.judge.expect import expect, expect_raises

PROBES = runpy.run_path(str(Path(__file__).with_name("probes.py")))
pytestmark = pytest.mark.task("leaks")

_CACHE = {}


def draw_step(course_seed):
    """The number of iterations and the step's sizes, drawn per student (shared by the task's checks: one
    find_leaks call serves them all). The ranges keep each family's shapes apart from the others' and from
    the tensors that are not leaks ((3, 3), (5, 5), (6,), (3, 4), (3,), (8, 4), (4, i + 20), (11, i + 30),
    (13, i + 50))."""
    gen = torch.Generator().manual_seed((int(course_seed) + zlib.crc32(b"leaks")) % 2**31)
    pick = lambda lo, hi: int(torch.randint(lo, hi + 1, (1,), generator=gen))  # noqa: E731
    dims = {"a": [2, 6, 7, 8][pick(0, 3)], "b": pick(2, 10), "vr": pick(7, 10), "vc": pick(17, 28), "p": pick(30, 40)}
    return pick(4, 6), dims


def step_text(d):
    return (f"a step that appends a new (i + 1, {d['a']}) tensor to a list, keeps its temporary ({d['b']}, i + 10) "
            f"tensor on even iterations, keeps a (2, {d['vc']}) view of a temporary ({d['vr']}, {d['vc']}) tensor, "
            f"keeps its () loss tensors, replaces a (4, i + 20) 'latest' tensor, creates (5, 5) and (6,) state on the "
            f"first call, keeps a (3, 3) tensor created before the first call, appends a new (i + 1, {d['p']}) "
            f"nn.Parameter, appends a new (i, {PROBES['GROWN_COLS']}) buffer after growing every earlier one in "
            f"place to (i, {PROBES['GROWN_COLS']}), drops in its first call a (1, 1) tensor created before it, "
            f"and drops a ({PROBES['CYCLE_ROWS']}, i + 30) tensor held only by a dict that refers to "
            f"itself (garbage in a reference cycle; the collector runs only when called), keeps its latest "
            f"({PROBES['HOLDER_ROWS']}, i + 50) tensor in a dict that refers to itself and replaces that holder on the "
            f"next call (the replaced one is garbage in a reference cycle), and returns a detached copy of its loss")


@functools.lru_cache(maxsize=None)  # deterministic (shapes only): computed once per judge process and sizes
def judge_leaks(n_iters, dims=()):
    """The judge's own finder, in this process, on the same step: shapes of the tensors born in iterations
    2..n-1 that are still alive at the end."""
    def alive():
        gc.collect()
        return {id(o): weakref.ref(o) for o in gc.get_objects() if issubclass(type(o), torch.Tensor)}

    gc.collect()
    gc.freeze()  # as the probe does: only objects created from here on are listed (and collected)
    try:
        store = {}
        step = PROBES["make_step"](store, dict(dims))
        seen = alive()
        born = []
        for _ in range(n_iters):
            step()
            now = alive()
            born.append([r for k, r in now.items() if k not in seen or seen[k]() is not r()])
            seen = now
        del now, seen
        gc.collect()
        out = sorted(list(t.shape) for group in born[1:n_iters - 1] for r in group if (t := r()) is not None)
    finally:
        gc.unfreeze()
    store.clear()
    return out


def leak_run(student, course_seed):
    """One find_leaks call per submission and seed (a gc scan is slow), judged by several checks."""
    n, dims = draw_step(course_seed)
    key = (id(student), course_seed)
    if key not in _CACHE:
        _CACHE[key] = (student, student.call("leaks", n_iters=n, dims=dims), judge_leaks(n, tuple(sorted(dims.items()))))
    _, r, want = _CACHE[key]
    what = f"find_leaks(step, {n}) for {step_text(dims)}"
    expect(r["kind"] == "list", f"{what} returned a {r['kind']}, expected a list of shapes")
    return r, want, what, families(n, dims), n


def families(n, d):
    """Which shapes belong to which behaviour of the step (i = 1..n)."""
    return {
        "appended": lambda s: len(s) == 2 and s[1] == d["a"] and 2 <= s[0] <= n + 1,
        "even": lambda s: len(s) == 2 and s[0] == d["b"] and 11 <= s[1] <= n + 10,
        "view": lambda s: s in ([2, d["vc"]], [d["vr"], d["vc"]]),
        "loss": lambda s: s == [],
        "param": lambda s: len(s) == 2 and s[1] == d["p"] and 2 <= s[0] <= n + 1,
        "grown": lambda s: s == [n, PROBES["GROWN_COLS"]],
    }


def expect_family(student, course_seed, family, explain):
    r, want, what, fams, n = leak_run(student, course_seed)
    got = sorted(s for s in r["items"] if isinstance(s, list) and fams[family](s))
    exp = [s for s in want if fams[family](s)]
    assert exp, "judge: the step leaks this family"
    expect(got == exp, f"{what}: among the shapes returned, {[tuple(s) for s in got]} are {explain}; expected "
                       f"{[tuple(s) for s in exp]} (tensors born in iterations 2 to {n - 1} and still alive)")


# grown: each buffer is born (i, 19) and grown in place by every later call, (n, 19) at the end; recording each shape at
# birth (next to a weakref) reports (2, 19) .. (n - 1, 19), shapes those tensors no longer have
def test_reports_appended_tensors(student, course_seed):
    """find_leaks reports the tensors a step appends to a list in iterations 2..n-1, with the shapes they have at the
    end (also buffers grown in place after their birth)"""
    expect_family(student, course_seed, "appended", "appended tensors")
    expect_family(student, course_seed, "grown", "buffers appended and grown in place to (i, "
                  f"{PROBES['GROWN_COLS']}) by every later call i (the shape each still-alive tensor has after the "
                  f"last call, not the one it was born with)")


def test_reports_tensors_kept_sometimes(student, course_seed):
    """find_leaks reports a tensor kept on some iterations only"""
    expect_family(student, course_seed, "even", "temporaries kept on even iterations")


def test_reports_views_and_their_bases(student, course_seed):
    """find_leaks reports a kept view and the base tensor it keeps alive"""
    expect_family(student, course_seed, "view", "views and their bases")


def test_reports_kept_loss_tensors(student, course_seed):
    """find_leaks reports the loss tensors a training step keeps"""
    expect_family(student, course_seed, "loss", "loss tensors")


def test_reports_tensor_subclasses(student, course_seed):
    """find_leaks counts every torch.Tensor instance, subclasses such as nn.Parameter included"""
    expect_family(student, course_seed, "param", "nn.Parameters (a torch.Tensor subclass)")


# cycle: a finder that lists gc.get_objects() without gc.collect() first still sees the tensor of each
# iteration's garbage reference cycle
def test_blames_nothing_else(student, course_seed):
    """find_leaks does not blame replaced values, first-iteration state, pre-existing tensors, the last iteration
    or garbage that only a reference cycle holds (gc.collect() after each call)"""
    r, want, what, fams, n = leak_run(student, course_seed)
    expect(all(t == "tuple" for t in r["item_types"]), f"{what}: the shapes should be tuples, got {r['item_types']}")
    extra = [s for s in r["items"] if not (isinstance(s, list) and any(f(s) for f in fams.values()))]
    cyclic = [s for s in extra if isinstance(s, list) and len(s) == 2 and s[0] == PROBES["CYCLE_ROWS"]]
    note = (f" ({[tuple(s) for s in cyclic]}: garbage in reference cycles, freed by gc.collect(), which the text "
            f"runs after each call)") if cyclic else ""
    # holder: a finder that runs gc.collect() before each call of step but not after the last one still sees the
    # tensor of iteration n - 1, whose holder the last call replaced (garbage in a reference cycle, not yet collected)
    held = [s for s in extra if isinstance(s, list) and len(s) == 2 and s[0] == PROBES["HOLDER_ROWS"]]
    note += (f" ({[tuple(s) for s in held]}: the tensor of a self-referencing holder that the last call of step "
             f"replaced, garbage that only gc.collect() frees; the text runs gc.collect() after each call, the last "
             f"one included, before telling which tensors are still alive)") if held else ""
    expect(not extra, f"{what} also returned {[tuple(s) if isinstance(s, list) else s for s in extra]}: those "
                      f"tensors were not born in iterations 2 to {n - 1}, or are not alive at the end{note}")
    expect(sorted(r["items"]) == want, f"{what} returned {[tuple(s) for s in sorted(r['items'])]}, expected "
                                       f"{[tuple(s) for s in want]}")


def test_holds_no_tensor_between_calls(student, course_seed):
    """find_leaks holds no strong reference to a tensor between calls of step (a replaced or returned tensor dies at
    once, and so does one that existed before find_leaks was called)"""
    r, want, what, fams, n = leak_run(student, course_seed)
    held = r.get("held", [])
    expect(not held, f"{what}: in iteration(s) {held} the (4, i + 20) tensor the step had just replaced was still "
                     f"alive (expected it to be freed at once: nothing but find_leaks could refer to it). "
                     f"find_leaks keeps tensors between calls of step; keep weakref.ref objects and ids only")
    held = r.get("held_returned", [])
    expect(not held, f"{what}: iteration(s) {held} began with the () tensor the previous call of step had returned "
                     f"still alive (expected it to be freed as soon as step returned it: nothing but find_leaks "
                     f"could refer to it, e.g. through `_ = step()`). The text: \"It holds no strong reference to "
                     f"any tensor between calls of step\"; call step() without keeping what it returns")
    held = r.get("held_pre", [])
    expect(not held, f"{what}: iteration(s) {held} began with the (1, 1) tensor that existed before find_leaks was "
                     f"called, and that the first call of step dropped, still alive (expected it to be freed at once: "
                     f"nothing but find_leaks could refer to it). The text: \"It holds no strong reference to any "
                     f"tensor between calls of step\", the tensors alive before the first call included: keep "
                     f"weakref.ref objects and ids of those too")


def fake_stats(bytes_list, allocs_list, gen):
    out = []
    for b, a in zip(bytes_list, allocs_list):
        out.append({"allocated_bytes.all.current": int(b), "allocation.all.current": int(a),
                    "allocated_bytes.all.peak": int(b) + int(torch.randint(0, 5000, (1,), generator=gen)),
                    "reserved_bytes.all.current": int(b) * 2 + 2_097_152,
                    "active_bytes.all.current": int(b) + 512, "num_alloc_retries": 0})
    return out


def growth_cases(gen):
    """Each case's pattern, its byte counts scaled by 512 * kb and its allocation counts by ka (drawn per
    student, so the smallest increases differ), plus an offset."""
    r = [int(v) for v in torch.randint(1, 40, (6,), generator=gen)]
    steady = [4096 + 512 * sum(r[:i]) for i in range(6)]
    kb, ka, base = (int(v) for v in torch.randint(1, 40, (3,), generator=gen))

    def scaled(b, a):
        return [base * 512 + kb * x for x in b], [base + ka * x for x in a]
    return {
        "growing every iteration": (steady, [3 + sum(r[:i]) // 4 for i in range(6)]),
        "a warm-up jump, then steady growth": scaled([1000, 90_000, 90_512, 91_024, 91_536], [1, 9, 10, 11, 12]),
        "growth with one iteration that frees memory": scaled([8192, 9216, 8704, 10240], [4, 5, 4, 6]),
        "the smallest increase between the first two snapshots": scaled([4096, 4608, 6144, 7680, 9216],
                                                                        [2, 3, 5, 7, 9]),
        "flat after the first iteration": scaled([2048, 4096, 4096, 4096], [2, 3, 3, 3]),
        "two snapshots": scaled([512, 1536], [1, 2]),
        "allocations grow, bytes do not": scaled([65536, 65536, 65536], [7, 8, 9]),
        # a buffer that grows in place (reallocated larger, one allocation all along): leaking, by the bytes alone
        "bytes grow, allocations do not": scaled([4096, 5120, 6656, 7680], [3, 3, 3, 3]),
        # each smallest increase in its own iteration: not the allocations of the iteration with the fewest bytes
        "smallest increases in different iterations": scaled([4096, 6144, 6656, 9216, 11264], [2, 3, 6, 7, 10]),
        # a large model on a GPU: 33 to 71 GiB allocated (beyond 2**24, float32 no longer holds every byte count, and
        # past 2**35 its spacing is 4096 or more), growing by an odd number (1 to 7) of 512-byte blocks per iteration,
        # never a multiple of float32's spacing there
        "tens of GiB, a few KiB more per iteration": (
            [(base + 32) * 2**30 + 512 * (kb + sum(1 + 2 * (v % 4) for v in r[:i])) for i in range(5)],
            [100_000 * base + ka + sum(r[:i]) for i in range(5)]),
    }


# flat after the first iteration: no growth whatever the scale (a constant answer, worth little)
@pytest.mark.parametrize("case", ["growing every iteration", "a warm-up jump, then steady growth",
                                  "growth with one iteration that frees memory",
                                  "the smallest increase between the first two snapshots",
                                  pytest.param("flat after the first iteration",
                                               marks=pytest.mark.task("leaks", weight=0.1)),
                                  "two snapshots", "allocations grow, bytes do not",
                                  "bytes grow, allocations do not", "smallest increases in different iterations",
                                  "tens of GiB, a few KiB more per iteration"])
def test_memory_growth_values(student, gen, case):
    """memory_growth: the smallest increase of allocated bytes and of allocations between snapshots, and leaking"""
    b, a = growth_cases(gen)[case]
    snaps = fake_stats(b, a, gen)
    want = {"bytes_per_iter": min(y - x for x, y in zip(b, b[1:])),
            "allocs_per_iter": min(y - x for x, y in zip(a, a[1:]))}
    want["leaking"] = want["bytes_per_iter"] > 0
    r = student.call("growth", snapshots=snaps)
    what = f"memory_growth(snapshots) for {case} (allocated_bytes.all.current {b}, allocation.all.current {a})"
    expect(r["kind"] == "dict", f"{what} returned a {r['kind']}, expected a dict")
    for key, w in want.items():
        expect(r["values"].get(key) == w, f"{what}: '{key}' is {r['values'].get(key)!r}, expected {w!r}")


def test_memory_growth_types(student, gen):
    """memory_growth returns exactly the keys bytes_per_iter (int), allocs_per_iter (int) and leaking (bool)"""
    b, a = growth_cases(gen)["growing every iteration"]
    r = student.call("growth", snapshots=fake_stats(b, a, gen))
    expect(r["kind"] == "dict", f"memory_growth returned a {r['kind']}, expected a dict")
    want = {"allocs_per_iter": "int", "bytes_per_iter": "int", "leaking": "bool"}
    expect(r["types"] == want, f"memory_growth returned keys and types {r['types']}, expected {want}")
    expect(r["values"]["bytes_per_iter"] == min(y - x for x, y in zip(b, b[1:])),
           f"memory_growth(...)['bytes_per_iter'] is {r['values']['bytes_per_iter']!r}")


@pytest.mark.task("leaks", weight=0.1)  # its right answer is a constant ("raised X"): worth little
@pytest.mark.parametrize("n", [0, 1])
def test_memory_growth_needs_two_snapshots(student, gen, n):
    """memory_growth raises ValueError for fewer than two snapshots"""
    r = student.call("growth_error", snapshots=fake_stats([1024], [1], gen)[:n])
    expect_raises(r, "ValueError", f"memory_growth of a list of {n} snapshot(s)")


@pytest.mark.gpu
@pytest.mark.parametrize("leak_elems", [0, 4096])
def test_memory_growth_on_cuda_stats(student, leak_elems):
    """memory_growth on real torch.cuda.memory_stats() snapshots finds a loop that keeps one tensor per iteration"""
    r = student.call("growth_on_gpu", leak_elems=leak_elems, iters=6)
    v = r["values"]
    expect(isinstance(v, dict), f"memory_growth returned {v!r}")
    what = (f"memory_growth of torch.cuda.memory_stats() after each of 6 iterations that keep "
            f"{'one float32 tensor of 4096 elements' if leak_elems else 'nothing'}")
    expect(v.get("leaking") is bool(leak_elems), f"{what}: 'leaking' is {v.get('leaking')!r}")
    expect(v.get("bytes_per_iter") == 4 * leak_elems, f"{what}: 'bytes_per_iter' is {v.get('bytes_per_iter')!r}, "
                                                      f"expected {4 * leak_elems}")
