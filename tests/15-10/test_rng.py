"""Hidden checks for capture_rng_state / restore_rng_state (15-10, judge side)."""
import random
import runpy
from pathlib import Path

import numpy as np
import pytest
import torch

from course.judge.expect import expect, expect_equal

pytestmark = pytest.mark.task("rng")
P = runpy.run_path(str(Path(__file__).with_name("probes.py")))


def judge_draws(seed, warmup):
    """The draws right after the capture, made by the judge: the probe's seeding and warm-up, in this process
    (whose generators are put back afterwards)."""
    saved = torch.get_rng_state(), np.random.get_state(), random.getstate()
    try:
        P["_seed_all"](seed)
        for _ in range(warmup):
            torch.rand(3); torch.randn(3); np.random.rand(2); np.random.standard_normal(2); random.random()
            random.gauss(0, 1); random.gauss(0, 1)
        np.random.standard_normal(1)
        random.gauss(0, 1)
        return P["_draws"]()
    finally:
        torch.set_rng_state(saved[0]); np.random.set_state(saved[1]); random.setstate(saved[2])


def run(student, gen, via_file):
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    warmup = int(torch.randint(0, 4, (1,), generator=gen))
    r = student.call("rng_roundtrip", seed=seed, via_file=via_file, warmup=warmup)
    r["judge"] = judge_draws(seed, warmup)
    return r


def compare(r, keys, source, how):
    for key in keys:
        expect_equal(r["first"][key], r["judge"][key], f"{source} draws ({key}) right after capture_rng_state() "
                     f"(capturing must not draw)")
        for label in ("second", "third", "fourth"):
            what = (f"{source} draws ({key}) after restore_rng_state(capture_rng_state()){how}"
                    + {"second": "", "third": " (restoring the same snapshot a second time)",
                       "fourth": " (restoring it after a later capture_rng_state() call: each call must return a "
                                 "snapshot of its own, which later captures leave alone)"}[label])
            expect_equal(r[label][key], r["first"][key], what)


@pytest.mark.parametrize("via_file", [False, True], ids=["in_memory", "through_torch_save"])
def test_torch_generator(student, gen, via_file):
    """the torch CPU generator continues exactly where it was captured"""
    r = run(student, gen, via_file)
    compare(r, ["torch", "randn"], "torch", ", saved with torch.save and loaded back" if via_file else "")


def test_numpy_generator(student, gen):
    """NumPy's global generator continues exactly where it was captured"""
    r = run(student, gen, True)
    compare(r, ["numpy"], "numpy.random", ", saved with torch.save and loaded back")


def test_numpy_cached_gaussian(student, gen):
    """NumPy's cached gaussian (has_gauss, the second value of a Box-Muller pair) is restored"""
    r = run(student, gen, True)
    compare(r, ["np_normal"], "numpy.random", ", captured while NumPy held a cached gaussian (after an odd number "
                                              "of standard_normal draws)")


def test_python_random(student, gen):
    """Python's random module continues exactly where it was captured"""
    r = run(student, gen, True)
    compare(r, ["python"], "Python random", ", saved with torch.save and loaded back")


def test_python_cached_gaussian(student, gen):
    """Python's random.gauss cached value (gauss_next) is restored"""
    r = run(student, gen, True)
    compare(r, ["gauss"], "Python random", ", captured while random.gauss held a cached value (after an odd "
                                           "number of random.gauss calls)")


def test_cuda_generators(student, gen):
    """with CUDA available, every device's generator is captured and restored (torch.cuda.get_rng_state_all /
    set_rng_state_all; a stand-in for two devices, so this runs without a GPU)"""
    captured = [torch.randint(0, 256, (16,), generator=gen, dtype=torch.uint8) for _ in range(2)]
    moved = [torch.randint(0, 256, (16,), generator=gen, dtype=torch.uint8) for _ in range(2)]
    r = student.call("rng_cuda_standin", captured=captured, moved=moved)
    what = ("capture_rng_state() while torch.cuda.is_available() is True with 2 devices (the judge stands in for "
            "their generators), the CUDA generators moved on, then restore_rng_state(snapshot)")
    expect(not r["error"]["raised"], f"{what}: raised {r['error']['type']}: {r['error']['message'][:200]}")
    expect(len(r["after"]) == len(captured), f"{what}: the probe read back {len(r['after'])} CUDA generator states "
                                             f"for {len(captured)} devices")
    for i, (got, want) in enumerate(zip(r["after"], captured)):
        expect(torch.equal(got, want), f"{what}: CUDA device {i}'s generator state should be the captured one "
                                       f"{want[:4].tolist()}..., got {got[:4].tolist()}... (section 3: "
                                       f"torch.cuda.get_rng_state_all() / set_rng_state_all(...))")


def test_snapshot_without_cuda_restores_where_cuda_is(student, gen):
    """a snapshot taken where CUDA is not available restores where it is (a CPU run resumed on a GPU node): no
    error, and the torch, NumPy and Python generators continue where they were captured"""
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    moved = [torch.randint(0, 256, (16,), generator=gen, dtype=torch.uint8) for _ in range(2)]
    r = student.call("rng_cpu_snapshot_on_cuda", seed=seed, moved=moved)
    what = ("snapshot = capture_rng_state() while torch.cuda.is_available() is False (no CUDA state to take), the "
            "generators moved on, then restore_rng_state(snapshot) while it is True with 2 devices (the judge stands "
            "in for them: a CPU run resumed on a GPU node)")
    err = r["error"]
    expect(not err["raised"], f"{what}: raised {err['type']}: {err['message'][:200]} (section 3: CUDA only if it "
                              f"is available, when capturing and when restoring)")
    saved = torch.get_rng_state(), np.random.get_state(), random.getstate()
    try:
        P["_seed_all"](seed)
        want = P["_draws"]()
    finally:
        torch.set_rng_state(saved[0]); np.random.set_state(saved[1]); random.setstate(saved[2])
    for key in ("torch", "numpy", "python"):
        got = r["draws"][key]
        same = torch.equal(got, want[key]) if isinstance(got, torch.Tensor) else got == want[key]
        expect(same, f"{what}: the {key} draws right after the restore are not the ones captured")
