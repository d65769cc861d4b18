"""Hidden checks for tree_broadcast (15-08, judge side)."""
import importlib.util
from pathlib import Path

import pytest
import torch

from course.judge.expect import expect, fail

_spec = importlib.util.spec_from_file_location("_15_08_common_bc", Path(__file__).with_name("_common.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

pytestmark = pytest.mark.task("tree_broadcast")

ROOTS = {2: (1, 0), 3: (2, 0), 4: (0, 3, 1), 5: (2,)}  # 5: a root's first step past N/2 is wrong from 5 ranks


def broadcast_cases(gen, world):
    cases = []
    for src in ROOTS[world]:
        for tag, shape, dtype in (("f32", (4, 3), torch.float32), ("i64", (9,), torch.int64),
                                  ("f64", (), torch.float64)):
            data = C.rand(gen, shape, dtype)
            # the other ranks' buffers hold unrelated values (never zeros that might already match)
            args = [(data.clone() if r == src else C.rand(gen, shape, dtype), src) for r in range(world)]
            cases.append({"name": f"{tag}_src{src}", "what": f"tree_broadcast(x, src={src}) with x {C.describe(data)}",
                          "args": args, "src": src, "data": data})
    # an empty x, from the last root (added last, so it shifts no other case's input)
    src = ROOTS[world][-1]
    data = torch.zeros(0, 4)
    cases.append({"name": f"empty_src{src}", "what": f"tree_broadcast(x, src={src}) with an empty x float32 (0, 4)",
                  "args": [(torch.zeros(0, 4), src) for _ in range(world)], "src": src, "data": data})
    # "arbitrary contents": the other ranks' x hold NaN and infinities (what torch.empty may give); the root's
    # data holds a -0.0 (added last, so it shifts no other case's input)
    data = C.rand(gen, (2, 4), torch.float32)
    data[0, 1] = -0.0
    junk = torch.tensor([[float("nan"), float("inf"), -float("inf"), float("nan")],
                         [-float("inf"), float("nan"), 1e38, float("inf")]])
    cases.append({"name": f"junk_src{src}", "what": f"tree_broadcast(x, src={src}) with x float32 (2, 4), NaN and "
                  f"inf in the other ranks' x and a -0.0 in the root's", "src": src, "data": data,
                  "args": [(data.clone() if r == src else junk.clone(), src) for r in range(world)]})
    if world in BIG_WORLDS:  # a 256 KiB x, from its own generator (gen is not advanced: no later input moves)
        big = torch.Generator().manual_seed((gen.initial_seed() * 31 + world) % 2**31)
        data = C.rand(big, (256, 256), torch.float32)
        cases.append({"name": f"big_src{src}", "what": f"tree_broadcast(x, src={src}) with x float32 (256, 256), "
                      f"256 KiB", "src": src, "data": data,
                      "args": [(data.clone() if r == src else C.rand(big, (256, 256), torch.float32), src)
                               for r in range(world)]})
    return cases


BIG_WORLDS = (3, 4)  # the worlds of test_broadcast_each_rank_receives_once


@pytest.fixture
def runs(student, course_seed):
    return C.cached_runs(student, course_seed, "tree_broadcast", lambda gen: C.Runs(
        student, "tree_broadcast", [{"world": n, "cases": broadcast_cases(gen, n)} for n in ROOTS]))


def _names(world, tags=("f32", "i64", "f64")):
    return [f"{t}_src{s}" for s in ROOTS[world] for t in tags]


def _check_values(runs, world, name):
    """Every rank returned the root's tensor: the messages counted are those of this run."""
    case, frames = runs.case(world, name)
    for rank, f in enumerate(frames):
        got = C.returned_tensor(f, f"{case['what']} on rank {rank} of {world}")
        C.same(got, case["data"], f"what {case['what']} returned on rank {rank} of {world}")


@pytest.mark.parametrize("world", tuple(ROOTS))
def test_broadcast_returns_root_values(runs, world):
    """tree_broadcast returns the root's tensor on every rank, for several roots, on 2 to 5 ranks"""
    for name in _names(world, ("f32",)):
        case, frames = runs.case(world, name)
        for rank, f in enumerate(frames):
            got = C.returned_tensor(f, f"{case['what']} on rank {rank} of {world}")
            C.same(got, case["data"], f"what {case['what']} returned on rank {rank} of {world}")


def test_broadcast_keeps_dtype_and_shape(runs, student, course_seed):
    """tree_broadcast moves int64 and 0-d float64 tensors unchanged in dtype, shape, value and device"""
    for world in (3, 4):
        for name in _names(world, ("i64", "f64")):
            case, frames = runs.case(world, name)
            for rank, f in enumerate(frames):
                got = C.returned_tensor(f, f"{case['what']} on rank {rank} of {world}")
                C.same(got, case["data"], f"what {case['what']} returned on rank {rank} of {world}")
    for world in ROOTS:  # every case (the empty x and the NaN-filled x too), on every world
        C.on_inputs_device(runs, world, runs.names(world))
    C.on_another_device(student, course_seed, "tree_broadcast", runs, "tree_broadcast")


def test_broadcast_fills_x_in_place(runs):
    """tree_broadcast overwrites x itself on every rank, in every case (0-d, empty, 256 KiB), and leaves the root's x as it was"""
    for world in ROOTS:
        for name in runs.names(world):  # every case: a large x received elsewhere and never copied in shows here
            case, frames = runs.case(world, name)
            for rank, f in enumerate(frames):
                C.same(f["inputs_after"][0], case["data"],
                       f"x itself on rank {rank} of {world} after {case['what']} (clause: overwrite x in place with "
                       f"the root's values on every rank)")
                moved = f.get("inputs_moved") or [False]
                expect(not moved[0], f"x on rank {rank} of {world} after {case['what']}: x now points at other "
                       f"memory than before the call (x.set_(...) or x.data = ...), so x's own memory, which every "
                       f"view of x shares (a parameter behind p.data), never got the root's values; the text says "
                       f"to overwrite x in place (receive into x, or x.copy_(...))")


def test_broadcast_overwrites_any_contents(runs):
    """tree_broadcast overwrites x whatever it held (NaN, inf) with the root's values bit for bit (-0.0 too)"""
    for world in (3, 4):
        case, frames = runs.case(world, f"junk_src{ROOTS[world][-1]}")
        want = case["data"]
        for rank, f in enumerate(frames):
            got = C.returned_tensor(f, f"{case['what']} on rank {rank} of {world}")
            for what, t in (("returned", got), ("left in x itself", f["inputs_after"][0])):
                C.same_bits(t, want, f"what {case['what']} {what} on rank {rank} of {world} (clause: on the other "
                                     f"ranks x holds arbitrary contents, and x is overwritten with the root's "
                                     f"values; NaN * 0 is NaN, -0.0 + 0.0 is +0.0)")


def test_broadcast_returns_x_itself(runs):
    """tree_broadcast returns x itself (the tensor it filled in place), not a copy, in every case (0-d, empty, 256 KiB)"""
    for world in ROOTS:
        for name in runs.names(world):  # every case: a 0-d x moved through a one-element copy shows here
            case, frames = runs.case(world, name)
            for rank, f in enumerate(frames):
                expect(f.get("shares_input"), f"{case['what']} on rank {rank} of {world}: returned a new tensor; "
                                              f"the text says to fill x in place and return x itself (clause: "
                                              f"overwrite x in place ... and return x)")
            _check_values(runs, world, name)


def test_broadcast_uses_no_collective(runs):
    """tree_broadcast uses point-to-point messages only: no collective call"""
    for world in ROOTS:
        for name in runs.names(world):  # every case: a 0-d, empty, int64 or large x too
            case, frames = runs.case(world, name)
            for rank, f in enumerate(frames):
                names = [c["name"] for c in f["collectives"]]
                expect(not names, f"{case['what']} on rank {rank} of {world}: send/recv only, but it called "
                                  f"the collective(s) {names[:4]} (clause: no collective)")
            _check_values(runs, world, name)


@pytest.mark.parametrize("world", (3, 4))
def test_broadcast_each_rank_receives_once(runs, world):
    """tree_broadcast: every rank except src receives exactly one message (the whole tensor), src none"""
    # a 0-d, an empty and a 256 KiB x too: one message whatever the size (not none, not a pipeline of pieces)
    for name in _names(world) + [f"empty_src{ROOTS[world][-1]}", f"big_src{ROOTS[world][-1]}"]:
        case, frames = runs.case(world, name)
        nbytes = case["data"].numel() * case["data"].element_size()
        for rank, f in enumerate(frames):
            got = [r["bytes"] for r in f["recvs"]]
            want = [] if rank == case["src"] else [nbytes]
            expect(got == want, f"{case['what']} on rank {rank} of {world}: expected "
                                f"{'no message' if not want else f'one message of {nbytes} bytes'} to be received "
                                f"(clause: every rank except src receives exactly one message, the whole tensor, "
                                f"also when it is empty or large), got {len(got)} message(s) of {got[:6]} bytes")
        _check_values(runs, world, name)


def _hops(frames, src, world):
    """Hops from src along the messages the ranks sent (None: not reached)."""
    edges = {r: [s["dst"] for s in f["sends"]] for r, f in enumerate(frames)}
    depth, frontier = {src: 0}, [src]
    while frontier:
        nxt = []
        for r in frontier:
            for d in edges.get(r, []):
                if 0 <= d < world and d not in depth:
                    depth[d] = depth[r] + 1
                    nxt.append(d)
        frontier = nxt
    return depth


@pytest.mark.parametrize("world", (3, 4))
def test_broadcast_depth_is_logarithmic(runs, world):
    """tree_broadcast: along the messages, no rank is more than ceil(log2 N) hops from src"""
    limit = C.ceil_log2(world)
    for name in runs.names(world):  # every case: a tree whatever x's size (a 256 KiB x too) or dtype
        case, frames = runs.case(world, name)
        depth = _hops(frames, case["src"], world)
        missing = [r for r in range(world) if r not in depth]
        expect(not missing, f"{case['what']} on {world} ranks: no chain of messages from rank {case['src']} "
                            f"reaches rank(s) {missing}")
        far = {r: d for r, d in depth.items() if d > limit}
        if far:
            fail(f"{case['what']} on {world} ranks: rank(s) {sorted(far)} are {max(far.values())} hops from the "
                 f"root, more than ceil(log2 {world}) = {limit} (a chain; use the binomial tree)")
        _check_values(runs, world, name)


@pytest.mark.parametrize("world", (3, 4))
def test_broadcast_sends_per_rank_logarithmic(runs, world):
    """tree_broadcast: no rank sends more than ceil(log2 N) messages"""
    limit = C.ceil_log2(world)
    for name in runs.names(world):  # every case: whatever x's size or dtype
        case, frames = runs.case(world, name)
        for rank, f in enumerate(frames):
            n = len(f["sends"])
            expect(n <= limit, f"{case['what']}: rank {rank} of {world} sent {n} messages, more than "
                               f"ceil(log2 {world}) = {limit} (a root that sends to every rank itself needs N-1 "
                               f"rounds)")
        _check_values(runs, world, name)


FAKE_WORLDS = (6, 8, 13)  # 8: two chains of v + 2 (depth 4) pass every smaller world; 13: depth past 4


@pytest.mark.parametrize("world", FAKE_WORLDS)
def test_broadcast_tree_on_larger_worlds(student, course_seed, world):
    """tree_broadcast on 6, 8 and 13 ranks, each rank played in turn on torch's fake process group: every rank but src receives one message, none is more than ceil(log2 N) hops from src, none sends more than ceil(log2 N) messages"""
    gen = C.task_gen(course_seed, f"tree_broadcast_fake_{world}")
    src = int(torch.randint(world, (), generator=gen))
    data = C.rand(gen, (4, 3), torch.float32)
    case = {"args": [(data.clone(), src) for _ in range(world)]}
    res = student.call("run_fake_worlds", fn_name="tree_broadcast", worlds=[{"world": world, "cases": [case]}])
    what = (f"tree_broadcast(x, src={src}) with x float32 (4, 3) on {world} ranks (each rank played in turn on "
            f"torch's fake process group: the messages its code sends and receives, no data moved)")
    # the reply's structure against the judge's own inputs: a forged shorter list would compare nothing
    expect(len(res["worlds"]) == 1 and len(res["worlds"][0]["ranks"]) == world and
           all(len(ranks) == 1 for ranks in res["worlds"][0]["ranks"]),
           f"tree_broadcast on {world} ranks of the fake process group: the probe's reply does not hold one record "
           f"per rank ({[len(w['ranks']) for w in res['worlds']][:4]} rank lists)")
    frames = [ranks[0] for ranks in res["worlds"][0]["ranks"]]
    missing = [r for r, f in enumerate(frames) if f is None]
    expect(not missing, f"{what}: rank(s) {missing} gave no record (the call did not return within the probe's "
                        f"deadline, or the process crashed)")
    if any(f["error"] for f in frames):
        # a receive from any source (dist.recv(x) without src) cannot be played without real ranks: such a tree
        # is judged by the gloo checks on 3 and 4 ranks only
        if all("source" in f["error"]["message"].lower() for f in frames if f["error"]):
            pytest.skip(f"{what}: a receive from any source cannot be played on the fake process group; this "
                        f"tree is judged by the gloo checks on 3 and 4 ranks")
        rank, err = next((r, f["error"]) for r, f in enumerate(frames) if f["error"])
        fail(f"{what}: rank {rank} raised {err['type']}: {err['message'][:240]}")
    limit = C.ceil_log2(world)
    nbytes = data.numel() * data.element_size()
    for rank, f in enumerate(frames):
        got = [r["bytes"] for r in f["recvs"]]
        want = [] if rank == src else [nbytes]
        expect(got == want, f"{what}: rank {rank} received messages of {got[:6]} bytes; expected "
                            f"{'none (it is the root)' if not want else f'exactly one of {nbytes} bytes'} "
                            f"(clause: every rank except src receives exactly one message)")
        expect(len(f["sends"]) <= limit, f"{what}: rank {rank} sent {len(f['sends'])} messages, more than "
                                         f"ceil(log2 {world}) = {limit}")
    depth = _hops(frames, src, world)
    unreached = [r for r in range(world) if r not in depth]
    expect(not unreached, f"{what}: no chain of messages from rank {src} reaches rank(s) {unreached}")
    far = {r: d for r, d in depth.items() if d > limit}
    expect(not far, f"{what}: rank(s) {sorted(far)} are more than ceil(log2 {world}) = {limit} hops from the root "
                    f"(the farthest {max(far.values()) if far else 0} hops) (clause: no rank is more than ceil(log2 N) hops from src; "
                    f"a binomial tree doubles the ranks that hold the data in every round)")
