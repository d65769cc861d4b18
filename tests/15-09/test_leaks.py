"""Hidden checks for find_leaks and memory_growth (15-09, judge side)."""
import functools
import gc
import runpy
import weakref
from pathlib import Path

import pytest
import torch

from course.checks import expect, expect_raises

PROBES = runpy.run_path(str(Path(__file__).with_name("probes.py")))
pytestmark = pytest.mark.task("leaks")

N_ITERS = 4
STEP_TEXT = ("a step that appends a new (i + 1, 2) tensor to a list, keeps its temporary (3, i + 10) tensor on even "
             "iterations, keeps a (2, 6) view of a temporary (7, 6) tensor, keeps its () loss tensors, replaces a "
             "(4, i + 20) 'latest' tensor, creates (5, 5) and (6,) state on the first call, and keeps a (3, 3) "
             "tensor created before the first call")
_CACHE = {}


@functools.lru_cache(maxsize=None)  # deterministic (shapes only): computed once per judge process
def judge_leaks(n_iters):
    """The judge's own finder, in this process, on the same step: shapes of the tensors born in iterations
    2..n-1 that are still alive at the end."""
    def alive():
        gc.collect()
        return {id(o): weakref.ref(o) for o in gc.get_objects() if issubclass(type(o), torch.Tensor)}

    gc.collect()
    gc.freeze()  # as the probe does: only objects created from here on are listed (and collected)
    try:
        store = {}
        step = PROBES["make_step"](store)
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


def leak_run(student):
    """One find_leaks call per submission (a gc scan is slow), judged by several checks."""
    key = id(student)
    if key not in _CACHE:
        _CACHE[key] = (student, student.call("leaks", n_iters=N_ITERS), judge_leaks(N_ITERS))
    _, r, want = _CACHE[key]
    what = f"find_leaks(step, {N_ITERS}) for {STEP_TEXT}"
    expect(r["kind"] == "list", f"{what} returned a {r['kind']}, expected a list of shapes")
    return r, want, what


FAMILIES = {  # which shapes belong to which behaviour of the step (i = 1..4)
    "appended": lambda s: len(s) == 2 and s[1] == 2 and 2 <= s[0] <= N_ITERS + 1,
    "even": lambda s: len(s) == 2 and s[0] == 3 and 11 <= s[1] <= N_ITERS + 10,
    "view": lambda s: s in ([2, 6], [7, 6]),
    "loss": lambda s: s == [],
}


def expect_family(student, family, explain):
    r, want, what = leak_run(student)
    got = sorted(s for s in r["items"] if isinstance(s, list) and FAMILIES[family](s))
    exp = [s for s in want if FAMILIES[family](s)]
    assert exp, "judge: the step leaks this family"
    expect(got == exp, f"{what}: among the shapes returned, {[tuple(s) for s in got]} are {explain}; expected "
                       f"{[tuple(s) for s in exp]} (tensors born in iterations 2 to {N_ITERS - 1} and still alive)")


def test_reports_appended_tensors(student):
    """find_leaks reports the tensors a step appends to a list in iterations 2..n-1"""
    expect_family(student, "appended", "appended tensors")


def test_reports_tensors_kept_sometimes(student):
    """find_leaks reports a tensor kept on some iterations only"""
    expect_family(student, "even", "temporaries kept on even iterations")


def test_reports_views_and_their_bases(student):
    """find_leaks reports a kept view and the base tensor it keeps alive"""
    expect_family(student, "view", "views and their bases")


def test_reports_kept_loss_tensors(student):
    """find_leaks reports the loss tensors a training step keeps"""
    expect_family(student, "loss", "loss tensors")


def test_blames_nothing_else(student):
    """find_leaks does not blame replaced values, first-iteration state, pre-existing tensors or the last iteration"""
    r, want, what = leak_run(student)
    expect(all(t == "tuple" for t in r["item_types"]), f"{what}: the shapes should be tuples, got {r['item_types']}")
    extra = [s for s in r["items"] if not (isinstance(s, list) and any(f(s) for f in FAMILIES.values()))]
    expect(not extra, f"{what} also returned {[tuple(s) if isinstance(s, list) else s for s in extra]}: those "
                      f"tensors were not born in iterations 2 to {N_ITERS - 1}, or are not alive at the end")
    expect(sorted(r["items"]) == want, f"{what} returned {[tuple(s) for s in sorted(r['items'])]}, expected "
                                       f"{[tuple(s) for s in want]}")


def fake_stats(bytes_list, allocs_list, gen):
    out = []
    for b, a in zip(bytes_list, allocs_list):
        out.append({"allocated_bytes.all.current": int(b), "allocation.all.current": int(a),
                    "allocated_bytes.all.peak": int(b) + int(torch.randint(0, 5000, (1,), generator=gen)),
                    "reserved_bytes.all.current": int(b) * 2 + 2_097_152,
                    "active_bytes.all.current": int(b) + 512, "num_alloc_retries": 0})
    return out


def growth_cases(gen):
    r = [int(v) for v in torch.randint(1, 40, (6,), generator=gen)]
    steady = [4096 + 512 * sum(r[:i]) for i in range(6)]
    return {
        "growing every iteration": (steady, [3 + sum(r[:i]) // 4 for i in range(6)]),
        "a warm-up jump, then steady growth": ([1000, 90_000, 90_512, 91_024, 91_536], [1, 9, 10, 11, 12]),
        "growth with one iteration that frees memory": ([8192, 9216, 8704, 10240], [4, 5, 4, 6]),
        "flat after the first iteration": ([2048, 4096, 4096, 4096], [2, 3, 3, 3]),
        "two snapshots": ([512, 1536], [1, 2]),
        "allocations grow, bytes do not": ([65536, 65536, 65536], [7, 8, 9]),
    }


@pytest.mark.parametrize("case", ["growing every iteration", "a warm-up jump, then steady growth",
                                  "growth with one iteration that frees memory", "flat after the first iteration",
                                  "two snapshots", "allocations grow, bytes do not"])
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


@pytest.mark.task("leaks", weight=0.4)  # its right answer is a constant ("raised X"): worth less
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
