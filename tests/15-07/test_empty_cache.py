"""Task empty_cache: traces that call empty_cache."""
import importlib.util
import random
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

_spec = importlib.util.spec_from_file_location("_15_07_common_ec", Path(__file__).with_name("_common.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)
ref, KiB, MiB = C.ref, C.KiB, C.MiB

pytestmark = pytest.mark.task("empty_cache")


def _cache_traces():
    fx = C.fixture()
    return fx, {k: v for k, v in fx["traces"].items() if k.startswith("cache_")}


def test_fixture_traces(student, gen):
    """simulate matches the expected statistics of the shipped traces that call empty_cache"""
    fx, traces = _cache_traces()
    for name, t in traces.items():
        C.compare_with_tail(student, t["ops"], t["expected"], gen, f"trace '{name}' ({fx['source']} expectations)",
                            p_cache=0.3)


def test_live_memory_survives(student, gen):
    """empty_cache never releases memory that live tensors use"""
    sizes = [int(s) for s in torch.randint(1, 6 * MiB, (8,), generator=gen)]
    ops = [("alloc", f"t{i}", s) for i, s in enumerate(sizes)] + [("empty_cache",)]
    ops += [("free", "t0"), ("free", "t3"), ("empty_cache",), ("alloc", "u", sizes[0]), ("empty_cache",)]
    C.compare_trace(student, ops, ref.simulate(ops), "live tensors, then empty_cache")


def test_partly_used_segment_kept(student, gen):
    """a segment with one live block stays reserved; it is released once completely free"""
    big = int(torch.randint(12, 40, (1,), generator=gen)) * MiB
    small = int(torch.randint(1 * MiB + 1, 5 * MiB, (1,), generator=gen))
    ops = [("alloc", "big", big), ("free", "big"), ("alloc", "s", small), ("empty_cache",),
           ("alloc", "k", 1000), ("alloc", "k2", 2000), ("free", "k"), ("empty_cache",),
           ("free", "s"), ("empty_cache",), ("free", "k2"), ("empty_cache",)]
    C.compare_trace(student, ops, ref.simulate(ops), "a split segment and a small segment across empty_cache")


def test_tie_after_a_release_goes_to_the_older_segment(student, gen):
    """best fit after empty_cache: a segment created after a release is newer than every segment still held"""
    # small pool, 1 MiB each: segment 0 [Z | W] is released; A's segment (created 2nd) and B's (created 3rd,
    # after the release) each keep a free 1 MiB block. C must take A's hole (the older segment): after A's free
    # and empty_cache both segments stay. A model that numbers B's segment 0 again gives C B's hole, and then
    # A's segment is wholly free and released.
    ops = [("alloc", "Z", MiB), ("alloc", "W", MiB), ("alloc", "A", MiB), ("free", "Z"), ("free", "W"),
           ("alloc", "T", MiB), ("empty_cache",), ("alloc", "B", MiB), ("free", "T"), ("alloc", "C", MiB),
           ("free", "A"), ("empty_cache",)]
    C.compare_with_tail(student, ops, ref.simulate(ops), gen, "two equal 1 MiB holes, in a segment created before "
                        "an empty_cache and in one created after it (the older one's must be taken)", p_cache=0.3)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_traces(student, seed):
    """simulate matches the allocator's rules on random traces with empty_cache"""
    ops = C.tie_free_random_trace(seed, 30, p_cache=0.12)
    C.compare_trace(student, ops, ref.simulate(ops), "a random trace with empty_cache")


def _check_replays(student, replay, where, gen=None):
    _, traces = _cache_traces()
    for name, t in traces.items():
        ops = t["ops"] + (C.tail(gen, p_cache=0.3) if gen is not None else [])  # the stand-in follows the model
        live = replay(ops)
        C.compare_trace(student, ops, live["stats"],
                        f"trace '{name}' replayed on {live['gpu']} (torch {live['torch']}, {where})")


@pytest.mark.gpu
def test_replay_on_gpu(student):
    """on CUDA, simulate matches torch.cuda.memory_stats() for each shipped empty_cache trace replayed live"""
    _check_replays(student, C.traces_mod.replay_on_gpu, "live memory_stats")


# The CPU variant of the check above (weight 0.25: it repeats the fixture check's comparison): the same
# replay script and judge logic, against the CUDA stand-in driven by the allocator model.
@pytest.mark.task("empty_cache", weight=0.25)
def test_replay_on_cuda_standin(student, gen):
    """simulate matches memory_stats() of each shipped empty_cache trace replayed on the CUDA stand-in"""
    _check_replays(student, C.replay_with_standin, "memory_stats of the allocator model", gen)
