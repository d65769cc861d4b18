"""Task allocator_model: simulate(trace) on alloc/free traces (no empty_cache)."""
import importlib.util
import random
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

_spec = importlib.util.spec_from_file_location("_15_07_common_am", Path(__file__).with_name("_common.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)
ref, KiB, MiB = C.ref, C.KiB, C.MiB

pytestmark = pytest.mark.task("allocator_model")


def _fixture_traces():
    fx = C.fixture()
    return fx, {k: v for k, v in fx["traces"].items() if not k.startswith("cache_")}


def test_fixture_traces(student):
    """simulate matches the expected statistics of the shipped alloc/free traces"""
    fx, traces = _fixture_traces()
    for name, t in traces.items():
        C.compare_trace(student, t["ops"], t["expected"], f"trace '{name}' ({fx['source']} expectations)")


def test_allocated_vs_reserved(student, gen):
    """freeing returns memory to the cache: allocated drops, reserved stays"""
    n = int(torch.randint(1 * MiB + 1, 9 * MiB, (1,), generator=gen))
    m = int(torch.randint(1, 1 * MiB, (1,), generator=gen))
    ops = [("alloc", "a", n), ("alloc", "b", m), ("free", "a"), ("free", "b")]
    C.compare_trace(student, ops, ref.simulate(ops), f"an allocate-then-free trace ({n} and {m} bytes)")


def test_small_rounding_sums(student, gen):
    """allocated is the sum of rounded (512-byte multiple) sizes of small tensors"""
    sizes = [int(s) for s in torch.randint(1, 5000, (12,), generator=gen)]
    ops = [("alloc", f"t{i}", s) for i, s in enumerate(sizes)]
    C.compare_trace(student, ops, ref.simulate(ops), "twelve small allocations")


def test_reuse_cached_block(student, gen):
    """a freed block is reused for a later request that fits, without a new segment"""
    big = int(torch.randint(12, 30, (1,), generator=gen)) * MiB + int(torch.randint(0, MiB, (1,), generator=gen))
    small = int(torch.randint(2 * MiB, 8 * MiB, (1,), generator=gen))
    ops = [("alloc", "big", big), ("free", "big"), ("alloc", "x", small), ("alloc", "y", 3 * MiB // 2),
           ("free", "x"), ("alloc", "z", small - 4096)]
    C.compare_trace(student, ops, ref.simulate(ops), "a reuse trace")


def test_large_remainder_not_split(student, gen):
    """a large-pool remainder of 1 MiB or less is not split off: the whole block counts as allocated"""
    k = int(torch.randint(5, 20, (1,), generator=gen))
    ops = [("alloc", "a", 19 * MiB), ("alloc", "b", 2 * k * MiB + 1), ("alloc", "c", 9 * MiB),
           ("free", "c"), ("alloc", "d", 8 * MiB + 512 * KiB), ("alloc", "e", 15 * MiB)]
    C.compare_trace(student, ops, ref.simulate(ops), "a trace of large requests")


def test_free_blocks_coalesce(student, gen):
    """freed neighbours inside a segment merge back into one block"""
    sizes = [int(s) for s in torch.randint(1 * MiB + 1, 3 * MiB, (6,), generator=gen)]
    order = torch.randperm(6, generator=gen).tolist()
    ops = [("alloc", f"t{i}", s) for i, s in enumerate(sizes)] + [("free", f"t{i}") for i in order]
    ops.append(("alloc", "whole", 19 * MiB + 1))
    C.compare_trace(student, ops, ref.simulate(ops), "six 1-3 MiB tensors freed in random order, then 19 MiB")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_traces(student, seed):
    """simulate matches the allocator's rules on random alloc/free traces"""
    ops = C.tie_free_random_trace(seed, 30)
    C.compare_trace(student, ops, ref.simulate(ops), "a random trace")


@pytest.mark.gpu
def test_replay_on_gpu(student):
    """on CUDA, simulate matches torch.cuda.memory_stats() for each shipped alloc/free trace replayed live"""
    _, traces = _fixture_traces()
    for name, t in traces.items():
        live = C.traces_mod.replay_on_gpu(t["ops"])
        C.compare_trace(student, t["ops"], live["stats"],
                        f"trace '{name}' replayed on {live['gpu']} (torch {live['torch']}, live memory_stats)")
