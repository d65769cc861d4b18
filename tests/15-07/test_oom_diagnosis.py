"""Task oom_diagnosis: summarize_snapshot and will_oom on memory_snapshot()-shaped data."""
import importlib.util
import math
import random
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings, strategies as st

from course.judge.expect import expect, fail

_spec = importlib.util.spec_from_file_location("_15_07_common_oom", Path(__file__).with_name("_common.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)
ref, KiB, MiB = C.ref, C.KiB, C.MiB

pytestmark = pytest.mark.task("oom_diagnosis")
INT_KEYS = ("reserved", "allocated", "cached_free", "largest_free_block", "releasable")


def _snapshot_after(ops):
    m = ref.RefAllocator()
    for op in ops:
        if op[0] == "alloc":
            m.malloc(op[1], op[2])
        elif op[0] == "free":
            m.free(op[1])
        else:
            m.empty_cache()
    return ref.snapshot_of(m)


def _with_pending(segs, rng: random.Random, p: float):
    """segs with each block in use turned, with probability p, into an 'active_pending_free' one (freed by the
    program, still used by a kernel on another stream): random states then hold all three block states the text
    defines, not only the two a one-stream trace leaves."""
    out = []
    for s in segs:
        blocks = [dict(b, state="active_pending_free") if b["state"] == "active_allocated" and rng.random() < p
                  else dict(b) for b in s["blocks"]]
        out.append(dict(s, blocks=blocks, allocated_size=sum(b["size"] for b in blocks
                                                              if b["state"] == "active_allocated")))
    return out


def _describe(segs) -> str:
    parts = []
    for s in segs[:6]:
        blocks = ", ".join(f"{b['size']}:{b['state'].replace('active_', '')}" for b in s["blocks"][:5])
        more = ", ..." if len(s["blocks"]) > 5 else ""
        parts.append(f"{s['segment_type']} segment of {C.fmt_bytes(s['total_size'])} [{blocks}{more}]")
    return "; ".join(parts) + (f"; ... ({len(segs)} segments)" if len(segs) > 6 else "")


def _shown(segs) -> str:
    """_describe for a snapshot that came back from the student's code, whatever shape it has now."""
    try:
        return _describe(segs)
    except (KeyError, TypeError, AttributeError):
        return repr(segs)[:400]


def _check_summary(student, segs, label):
    got = student.call("summarize", segments=segs)
    if "__error__" in got:
        fail(f"summarize_snapshot({label}): {got['__error__']}")
    want = ref.summarize_snapshot(segs)
    for k in INT_KEYS:
        if k not in got:
            fail(f"summarize_snapshot({label}): the result has no key '{k}' (it has {sorted(got)})")
        if not (isinstance(got[k], (int, float)) and not isinstance(got[k], bool) and got[k] == want[k]):
            fail(f"summarize_snapshot({label}): '{k}' should be {C.fmt_bytes(want[k])}, got {got[k]!r}.\n"
                 f"  snapshot: {_describe(segs)}")
    f = got.get("fragmentation")
    if not (isinstance(f, (int, float)) and not isinstance(f, bool) and math.isfinite(f)
            and abs(f - want["fragmentation"]) <= 1e-9):
        fail(f"summarize_snapshot({label}): 'fragmentation' should be 1 - largest_free_block / cached_free = "
             f"{want['fragmentation']:.6f} (0.0 when nothing is cached), got {f!r}.\n  snapshot: {_describe(segs)}")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_summary_random_states(student, seed):
    """summarize_snapshot agrees with the allocator state after random traces (some blocks pending free; the blocks
    carry 'requested_size' and 'address' too, as in a real torch.cuda.memory_snapshot())"""
    rng = random.Random(seed)
    ops = C.random_trace(rng, 40, p_cache=0.05)
    _check_summary(student, _with_pending(_snapshot_after(ops), rng, 0.25),
                   "snapshot after a random trace, some blocks 'active_pending_free'")


def test_summary_edge_cases(student, gen):
    """summarize_snapshot: empty snapshot, a fully free segment, blocks pending free, and a largest free block in the small pool"""
    _check_summary(student, [], "[] (nothing reserved)")
    n = int(torch.randint(1, 8 * 2048, (1,), generator=gen)) * 512  # 512 bytes to 8 MiB
    pending = [
        {"segment_type": "large", "total_size": 20 * MiB, "allocated_size": n,
         "blocks": [{"size": n, "state": "active_allocated"}, {"size": 3 * MiB, "state": "active_pending_free"},
                    {"size": 17 * MiB - n, "state": "inactive"}]},
        {"segment_type": "small", "total_size": 2 * MiB, "allocated_size": 0,
         "blocks": [{"size": 2 * MiB, "state": "inactive"}]},
        {"segment_type": "small", "total_size": 2 * MiB, "allocated_size": 0,
         "blocks": [{"size": 512, "state": "active_pending_free"}, {"size": 2 * MiB - 512, "state": "inactive"}]},
    ]
    _check_summary(student, pending, "a snapshot with 'active_pending_free' blocks")
    # the largest inactive block is a whole free small segment (2 MiB): the large pool's only hole is smaller
    r = int(torch.randint(2049, 4096, (1,), generator=gen)) * 512  # a split-off large remainder: 1 MiB < r < 2 MiB
    m = int(torch.randint(1, 4095, (1,), generator=gen)) * 512
    small_wins = [
        {"segment_type": "large", "total_size": 20 * MiB, "allocated_size": 20 * MiB - r,
         "blocks": [{"size": 20 * MiB - r, "state": "active_allocated"}, {"size": r, "state": "inactive"}]},
        {"segment_type": "small", "total_size": 2 * MiB, "allocated_size": m,
         "blocks": [{"size": m, "state": "active_allocated"}, {"size": 2 * MiB - m, "state": "inactive"}]},
        {"segment_type": "small", "total_size": 2 * MiB, "allocated_size": 0,
         "blocks": [{"size": 2 * MiB, "state": "inactive"}]},
    ]
    _check_summary(student, small_wins, "a snapshot whose largest inactive block is a free 2 MiB small segment "
                   "(largest_free_block counts the blocks of both pools)")


def test_summary_value_types(student, gen):
    """summarize_snapshot returns ints for the byte counts and a float for fragmentation (0.0 when nothing is cached free)"""
    segs = _snapshot_after([("alloc", "a", int(torch.randint(1, 9 * MiB, (1,), generator=gen))), ("alloc", "b", 700),
                            ("free", "b")])
    got = student.call("summarize", segments=segs)
    if "__error__" in got:
        fail(f"summarize_snapshot(snapshot): {got['__error__']}")
    bad = [f"{k}={got.get(k)!r} ({type(got.get(k)).__name__})" for k in INT_KEYS if type(got.get(k)) is not int]
    if type(got.get("fragmentation")) is not float:
        bad.append(f"fragmentation={got.get('fragmentation')!r} ({type(got.get('fragmentation')).__name__}, "
                   f"should be a float)")
    expect(not bad, f"summarize_snapshot(snapshot): byte counts should be ints and fragmentation a float; got "
                    f"{', '.join(bad)}.\n  snapshot: {_describe(segs)}")
    _check_summary(student, segs, "a snapshot after one allocation")
    # nothing cached free: fragmentation is the float 0.0 (an empty snapshot, or one 20 MiB block in use)
    segs = [] if int(torch.randint(0, 2, (1,), generator=gen)) else _snapshot_after([("alloc", "a", 19 * MiB + 7)])
    got = student.call("summarize", segments=segs)
    if "__error__" in got:
        fail(f"summarize_snapshot(snapshot) with nothing cached free: {got['__error__']}")
    frag = got.get("fragmentation")
    expect(type(frag) is float, f"summarize_snapshot(snapshot) with nothing cached free: fragmentation should be "
                                f"the float 0.0, got {frag!r} ({type(frag).__name__}).\n  snapshot: "
                                f"{_describe(segs) or '[] (empty)'}")


def _oom_cases(rng: random.Random, k: int):
    cases = []
    for _ in range(k):
        segs = _with_pending(_snapshot_after(C.random_trace(rng, rng.randrange(5, 40))), rng, 0.15)
        summary = ref.summarize_snapshot(segs)
        device_free = rng.choice([0, rng.randrange(0, 3 * MiB), rng.randrange(0, 40 * MiB),
                                  summary["cached_free"]])
        nbytes = rng.choice([C.random_size(rng), summary["largest_free_block"] + rng.randrange(1, 4 * MiB),
                             max(1, summary["largest_free_block"] - rng.randrange(0, 4096)), 0])
        cases.append({"segments": segs, "device_free": device_free, "nbytes": nbytes})
    return cases


def _check_oom(student, cases, label, gen=None):
    """will_oom on each case; with gen, three random cases join them and all are asked in a random order
    (so the list of answers differs per student)."""
    labels = [label] * len(cases)
    if gen is not None:
        extra = _oom_cases(random.Random(int(torch.randint(0, 2**31 - 1, (1,), generator=gen))), 3)
        order = torch.randperm(len(cases) + 3, generator=gen).tolist()
        cases, labels = [(cases + extra)[i] for i in order], [(labels + ["random snapshot"] * 3)[i] for i in order]
    got = student.call("will_oom_many", cases=cases)
    expect(isinstance(got, list) and len(got) == len(cases), f"will_oom on {len(cases)} cases: got {str(got)[:200]}")
    for c, g, lab in zip(cases, got, labels):
        want = ref.will_oom(c["segments"], c["device_free"], c["nbytes"])
        if not isinstance(g, bool) or g != want:
            fail(f"will_oom({lab}, device_free={C.fmt_bytes(c['device_free'])}, nbytes={C.fmt_bytes(c['nbytes'])}): "
                 f"expected {want}, got {g!r}.\n  snapshot: {_describe(c['segments'])}")


def test_fragmented_cache_ooms(student, gen):
    """will_oom: plenty of cached free memory in pieces that are all too small still runs out"""
    k = int(torch.randint(3, 7, (1,), generator=gen))
    ops = []
    for i in range(k):  # k 20 MiB segments, each with a live 1.5 MiB block between two free 9 MiB holes
        ops += [("alloc", f"a{i}", 9 * MiB), ("alloc", f"p{i}", 3 * MiB // 2), ("alloc", f"b{i}", 9 * MiB)]
    ops += [("free", f"a{i}") for i in range(k)] + [("free", f"b{i}") for i in range(k)]
    segs = _snapshot_after(ops)
    cases = [{"segments": segs, "device_free": 10 * MiB, "nbytes": 12 * MiB},     # > any hole, > device_free
             {"segments": segs, "device_free": 12 * MiB, "nbytes": 12 * MiB},     # new segment fits
             {"segments": segs, "device_free": 0, "nbytes": 9 * MiB},             # a hole fits
             {"segments": segs, "device_free": 0, "nbytes": 2 * KiB}]             # small pool: needs 2 MiB
    _check_oom(student, cases, f"{k} segments each holding one live block between two free 9 MiB holes", gen)


def test_release_then_retry(student, gen):
    """will_oom: fully free cached segments are released and the cudaMalloc retried (byte counts compared exactly, as
    ints, also past 2**53: a device one byte short of the segment runs out)"""
    segs = _snapshot_after([("alloc", "a", 30 * MiB), ("alloc", "b", 200), ("free", "a")])
    cases = [{"segments": segs, "device_free": 5 * MiB, "nbytes": 32 * MiB},   # 5 + 30 >= 32: no OOM
             {"segments": segs, "device_free": 5 * MiB, "nbytes": 36 * MiB},   # 5 + 30 < 36: OOM
             {"segments": segs, "device_free": 1 * MiB, "nbytes": 1 * MiB + 1}]  # reuses the 30 MiB block
    _check_oom(student, cases, "one fully free 30 MiB segment and a small segment in use", gen)
    # Steps 2 and 3 past 2**53 bytes: N is a multiple of 2 MiB below 2**62 (its segment is N); a device one byte
    # short of it (step 2), or of it less the 30 MiB step 3 releases, runs out. Float arithmetic (bytes / MiB)
    # rounds N - 1 to N there.
    big = int(torch.randint(2**33, 2**40, (1,), generator=gen)) * 2 * MiB
    short = [{"segments": [], "device_free": big - 1, "nbytes": big},
             {"segments": [], "device_free": big, "nbytes": big},
             {"segments": segs, "device_free": big - 30 * MiB - 1, "nbytes": big},
             {"segments": segs, "device_free": big - 30 * MiB, "nbytes": big}]
    _check_oom(student, short, f"a request of {big} bytes (past 2**53; its segment is exactly that) with nothing "
                               f"cached, or with the 30 MiB segment above; step 2: 'if the device has that much free "
                               f"memory, done', step 3 adds what it releases, all in whole bytes (ints), so one byte "
                               f"short is an OOM")


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_will_oom_random(student, seed):
    """will_oom agrees with the allocator's decision on random states and requests"""
    _check_oom(student, _oom_cases(random.Random(seed), 8), "random snapshot")


def test_release_other_pool(student, gen):
    """will_oom: step 3 releases fully free segments of BOTH pools, also when only the other pool has one"""
    n = int(torch.randint(1, 8, (1,), generator=gen)) * MiB + 4096
    # a fully free 2 MiB small segment, and a large segment with a live block (nothing of it releasable)
    segs = _snapshot_after([("alloc", "s", 100 * KiB), ("alloc", "l", 25 * MiB), ("free", "s")])
    cases = [{"segments": segs, "device_free": 18 * MiB, "nbytes": n},    # 20 MiB segment: 18 + 2 freed = 20
             {"segments": segs, "device_free": 17 * MiB, "nbytes": n}]    # 17 + 2 < 20: OOM
    _check_oom(student, cases, "a fully free small segment and a large segment in use", gen)
    # a fully free large segment; a small request needs a new 2 MiB segment on a full device
    segs = _snapshot_after([("alloc", "a", 12 * MiB), ("alloc", "k", 1000), ("alloc", "k2", 1 * MiB),
                            ("alloc", "k3", 1 * MiB - 1024), ("free", "a")])
    cases = [{"segments": segs, "device_free": 0, "nbytes": int(torch.randint(1, 1024, (1,), generator=gen))}]
    _check_oom(student, cases, "a full small segment and a fully free 12 MiB large segment", gen)


def test_exact_fit_is_reused(student, gen):
    """will_oom: a free cached block exactly the rounded size of the request serves it (size >= rounded size)"""
    k = int(torch.randint(2, 9, (1,), generator=gen))
    # a full 20 MiB segment [free k MiB | b], a full 2 MiB small segment [free 1024 | s2 | s3]
    segs = _snapshot_after([("alloc", "a", k * MiB), ("alloc", "b", (20 - k) * MiB - 512 * KiB), ("alloc", "s", 1000),
                            ("alloc", "s2", 1 * MiB), ("alloc", "s3", 1 * MiB - 1024), ("free", "a"), ("free", "s")])
    cases = [{"segments": segs, "device_free": 0, "nbytes": k * MiB - int(torch.randint(0, 512, (1,), generator=gen))},
             {"segments": segs, "device_free": 0, "nbytes": 1000}]
    _check_oom(student, cases, f"a free {k} MiB hole and a free 1024-byte small block, nothing else free", gen)


def test_pool_read_from_segment_type(student, gen):
    """will_oom: a segment's pool is its 'segment_type', not guessed from its size or its blocks' sizes (a small
    segment of 4-8 MiB, a whole free 2 MiB small segment: neither serves a large request; small ones fit there)"""
    # A small segment need not be 2 MiB (expandable segments grow a small segment 2 MiB at a time), and a free
    # small block may be larger than 1 MiB (a whole free small segment): only segment_type says the pool.
    big = int(torch.randint(2, 5, (1,), generator=gen)) * 2 * MiB               # a small segment of 4, 6 or 8 MiB
    used = int(torch.randint(1, 2048, (1,), generator=gen)) * 512              # its live block
    hole = big - used                                                           # its free rest, > 1 MiB
    full = {"segment_type": "large", "total_size": 20 * MiB, "allocated_size": 20 * MiB,
            "blocks": [{"size": 20 * MiB, "state": "active_allocated"}]}
    wide = {"segment_type": "small", "total_size": big, "allocated_size": used,
            "blocks": [{"size": used, "state": "active_allocated"}, {"size": hole, "state": "inactive"}]}
    segs = [wide, full] if int(torch.randint(0, 2, (1,), generator=gen)) else [full, wide]
    large_n = 1 * MiB + int(torch.randint(1, (hole - 1 * MiB) // 512 + 1, (1,), generator=gen)) * 512  # fits the hole
    small_n = int(torch.randint(1, 1 * MiB + 1, (1,), generator=gen))
    cases = [{"segments": segs, "device_free": 0, "nbytes": large_n},          # large: the small hole cannot serve
             {"segments": segs, "device_free": 19 * MiB, "nbytes": large_n},   # nor a 20 MiB segment: OOM
             {"segments": segs, "device_free": 0, "nbytes": small_n}]          # small: served by the hole
    _check_oom(student, cases, f"a small segment of {C.fmt_bytes(big)} (segment_type 'small') with a free "
                               f"{C.fmt_bytes(hole)} block, and a full large segment", gen)
    # a whole free 2 MiB small segment (one 2 MiB 'inactive' block) and a large segment in use
    segs = [{"segment_type": "small", "total_size": 2 * MiB, "allocated_size": 0,
             "blocks": [{"size": 2 * MiB, "state": "inactive"}]}, full]
    n = 1 * MiB + int(torch.randint(1, 2048, (1,), generator=gen)) * 512       # a large request of at most 2 MiB
    cases = [{"segments": segs, "device_free": 0, "nbytes": n},                # OOM: 0 free + 2 MiB released < 20 MiB
             {"segments": segs, "device_free": 18 * MiB, "nbytes": n}]         # 18 + 2 released = 20 MiB: fits
    _check_oom(student, cases, "a whole free 2 MiB small segment (one 2 MiB 'inactive' block) and a full large "
                               "segment", gen)


def test_pending_free_blocks_not_reused(student, gen):
    """will_oom: 'active_pending_free' blocks are neither reused (step 1) nor released (step 3)"""
    k = int(torch.randint(2, 9, (1,), generator=gen))              # size of the pending large hole, MiB
    n = int(torch.randint(1, 2048, (1,), generator=gen)) * 512     # a small-pool request, 512 B .. 1 MiB
    segs = [{"segment_type": "large", "total_size": 20 * MiB, "allocated_size": (20 - k) * MiB,
             "blocks": [{"size": k * MiB, "state": "active_pending_free"},
                        {"size": (20 - k) * MiB, "state": "active_allocated"}]},
            {"segment_type": "small", "total_size": 2 * MiB, "allocated_size": 0,  # nothing allocated, yet busy
             "blocks": [{"size": 2 * MiB, "state": "active_pending_free"}]}]
    cases = [{"segments": segs, "device_free": 0, "nbytes": k * MiB - 512},   # only the pending hole would fit
             {"segments": segs, "device_free": 0, "nbytes": n},               # only the pending small segment
             {"segments": segs, "device_free": 19 * MiB, "nbytes": k * MiB},  # 20 MiB segment; 19 + 0 releasable
             {"segments": segs, "device_free": 20 * MiB, "nbytes": k * MiB}]  # a new segment fits: no OOM
    _check_oom(student, cases, "only 'inactive' blocks can be reused and only segments of 'inactive' blocks "
                               "released; here every free-looking block is 'active_pending_free'", gen)


def test_segment_of_several_inactive_blocks_is_releasable(student, gen):
    """a segment whose blocks are all 'inactive', however many, is releasable and released by will_oom's step 3"""
    k = int(torch.randint(2, 5, (1,), generator=gen))                 # blocks in the fully free large segment
    cut = sorted(torch.randperm(19, generator=gen)[: k - 1].add(1).tolist())
    sizes = [(b - a) * MiB for a, b in zip([0] + cut, cut + [20])]   # k inactive blocks of whole MiB, 20 MiB in all
    free_seg = {"segment_type": "large", "total_size": 20 * MiB, "allocated_size": 0,
                "blocks": [{"size": s, "state": "inactive"} for s in sizes]}
    small = {"segment_type": "small", "total_size": 2 * MiB, "allocated_size": 2 * MiB - 512,
             "blocks": [{"size": 512, "state": "inactive"}, {"size": 2 * MiB - 512, "state": "active_allocated"}]}
    segs = [small, free_seg] if int(torch.randint(0, 2, (1,), generator=gen)) else [free_seg, small]
    _check_summary(student, segs, f"a fully free 20 MiB segment listed as {k} 'inactive' blocks and a small segment "
                                  f"in use")
    # 24 MiB needs a new 24 MiB segment: no hole is that big; 8 MiB free plus the 20 MiB released is enough
    _check_oom(student, [{"segments": segs, "device_free": 8 * MiB, "nbytes": 24 * MiB},
                         {"segments": segs, "device_free": 3 * MiB, "nbytes": 24 * MiB}],
               f"a fully free 20 MiB segment listed as {k} 'inactive' blocks", gen)


def test_snapshot_left_unchanged(student, gen):
    """summarize_snapshot and will_oom only read the snapshot they are given: it is unchanged after each call,
    whichever of steps 1-4 decides (a request served from the cache, by a new segment, after a release, an OOM)"""
    k = int(torch.randint(2, 9, (1,), generator=gen))
    # a fully free segment (step 3 would release it), a segment with a live block between holes, a small one
    segs = _snapshot_after([("alloc", "a", 30 * MiB), ("alloc", "h", k * MiB), ("alloc", "p", 1 * MiB + 4096),
                            ("alloc", "h2", 9 * MiB), ("alloc", "s", 100), ("free", "a"), ("free", "h"),
                            ("free", "h2")])
    nbytes = 32 * MiB + int(torch.randint(0, 4 * MiB, (1,), generator=gen))  # needs a new segment, then step 3
    hole = k * MiB - int(torch.randint(0, 512, (1,), generator=gen)) * KiB    # served by the k MiB hole (step 1)
    small = int(torch.randint(1, 1024, (1,), generator=gen))                  # served by the small segment's rest
    # step 1 (a large hole, a small block), step 3 and a retry that fits or not (5 MiB free), step 4 (OOM), step 2
    requests = [(0, hole), (0, small), (5 * MiB, nbytes), (1 * MiB, nbytes), (40 * MiB, nbytes)]
    order = torch.randperm(len(requests), generator=gen).tolist()
    requests = [requests[i] for i in order]
    r = student.call("snapshot_after_calls", segments=segs, requests=[list(q) for q in requests])
    calls = [("summarize_snapshot(snapshot)", r["after_summary"])]
    afters = r["after_will_oom"] if isinstance(r["after_will_oom"], list) else [r["after_will_oom"]] * len(requests)
    expect(len(afters) == len(requests), f"the probe asked will_oom {len(requests)} times on the same snapshot but "
                                         f"reported the snapshot after {len(afters)} calls")
    calls += [(f"will_oom(snapshot, device_free={C.fmt_bytes(f)}, nbytes={C.fmt_bytes(n)})"
               + (f" (after the calls {', '.join(f'will_oom(snapshot, {C.fmt_bytes(f2)}, {C.fmt_bytes(n2)})' for f2, n2 in requests[:i])} on the same list)" if i else ""),
               a) for i, ((f, n), a) in enumerate(zip(requests, afters))]
    for call, after in calls:
        expect(after == segs, f"{call} changed the snapshot it was given (segments, blocks or their fields): "
                              f"it should only read it (will_oom predicts what the allocator would do; it does not "
                              f"allocate or release anything). Before: {_describe(segs)}. After: "
                              f"{_shown(after)}")


@pytest.mark.task("oom_diagnosis", weight=0.1)  # its right answer is a constant (False): worth little
def test_zero_byte_request_never_fails(student, gen):
    """will_oom: a 0-byte request never fails, even with nothing cached and no device memory"""
    segs = _snapshot_after([("alloc", "a", int(torch.randint(1, 30 * MiB, (1,), generator=gen)))])
    _check_oom(student, [{"segments": [], "device_free": 0, "nbytes": 0},
                         {"segments": segs, "device_free": 0, "nbytes": 0}], "no free memory anywhere")


def _check_live_summary(student, r, where):
    got = r["summary"]
    for k, live in (("reserved", r["reserved"]), ("allocated", r["allocated"])):
        expect(got.get(k) == live, f"summarize_snapshot(torch.cuda.memory_snapshot()) on {where}: '{k}' should equal "
                                   f"torch.cuda.memory_stats() ({C.fmt_bytes(live)}), got {got.get(k)!r}")
    _check_summary(student, r["segments"], f"torch.cuda.memory_snapshot() on {where}")


@pytest.mark.gpu
def test_summary_of_live_snapshot(student, gen):
    """on CUDA, summarize_snapshot(torch.cuda.memory_snapshot()) matches memory_stats"""
    sizes = [int(s) for s in torch.randint(1, 12 * MiB, (16,), generator=gen)]
    r = student.call("summarize_live_gpu", sizes=sizes, free_every=3)
    _check_live_summary(student, r, "a live GPU")


# The CPU variant of the check above: the same probe, with the CUDA stand-in installed in the student's
# process. The stand-in answers memory_snapshot()/memory_stats() with what the judge's allocator model
# computed for the probe's allocations, and logs them, so the judge can check the probe did just that.
def test_summary_of_standin_snapshot(student, gen):
    """summarize_snapshot(torch.cuda.memory_snapshot()) matches memory_stats on the CUDA stand-in"""
    sizes = [int(s) for s in torch.randint(1, 12 * MiB, (16,), generator=gen)]
    ops = [("alloc", f"t{i}", n) for i, n in enumerate(sizes)] + [("free", f"t{i}") for i in range(0, 16, 3)]
    m = ref.RefAllocator()
    for op in ops:
        m.malloc(op[1], op[2]) if op[0] == "alloc" else m.free(op[1])
    st_ = m.stats()
    script = {"snapshot": ref.snapshot_of(m),
              "stats": {"allocated_bytes.all.current": st_["allocated"], "reserved_bytes.all.current": st_["reserved"]}}
    r = student.call("summarize_live_gpu", sizes=sizes, free_every=3, standin=C.standin_source(), script=script)
    if r.get("standin_log") != [list(o) for o in ops]:
        fail(f"the CUDA stand-in saw the operations {r.get('standin_log')!r}, expected {ops!r} "
             f"(the probe's allocations changed; update the script)")
    # The judge's own snapshot and stats, those it scripted into the stand-in, never the ones the worker reports
    # having read: a worker could empty both and return a summary of nothing.
    _check_live_summary(student, {**r, "segments": script["snapshot"], "allocated": st_["allocated"],
                                  "reserved": st_["reserved"]}, "the CUDA stand-in")
