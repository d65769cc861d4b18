"""Hidden checks for gather_shards / reduce_scatter_shards and group_sums (15-08, judge side)."""
import importlib.util
from pathlib import Path

import pytest
import torch

from course.judge.expect import expect

_spec = importlib.util.spec_from_file_location("_15_08_common_sg", Path(__file__).with_name("_common.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

WORLDS = (2, 3, 4)
# (tag, numel, dtype): lengths N does not divide, fewer elements than ranks, one element, divisible
SHARD_CASES = (("f32_10", 10, torch.float32), ("f64_7", 7, torch.float64), ("i64_13", 13, torch.int64),
               ("f32_12", 12, torch.float32), ("f32_2", 2, torch.float32), ("i64_1", 1, torch.int64),
               ("i32_9", 9, torch.int32))
# length 0: run last (reduce_scatter first), so that a solution failing it loses only the empty-shard checks
ZERO = ("i64_0", 0, torch.int64)  # an integer dtype: an early `return torch.empty(0)` is float32


BIG_INT = {"low": -2**60, "high": 2**60}  # int64 past 2**53: a sum taken in float64 rounds


def _ints(dtype):
    return BIG_INT if dtype == torch.int64 else {}


def _gather_case(gen, world, tag, numel, dtype):
    flat = C.rand(gen, (numel,), dtype, **_ints(dtype))
    shards = [s.clone() for s in torch.tensor_split(flat, world)]
    return {"name": f"gather_{tag}", "fn": "gather_shards", "flat": flat,
            "what": f"gather_shards(shard, {numel}) for a {C.describe(flat)} tensor",
            "args": [(shards[r], numel) for r in range(world)]}


def _rs_case(gen, world, tag, numel, dtype):
    fulls = [C.rand(gen, (numel,), dtype, **_ints(dtype)) for _ in range(world)]
    return {"name": f"rs_{tag}", "fn": "reduce_scatter_shards",
            "what": f"reduce_scatter_shards(full) with full {C.describe(fulls[0])}",
            "args": [(fulls[r],) for r in range(world)]}


AGAIN = ("f32_10_again", 10, torch.float32)  # the length of f32_10 again: a workspace kept per length is reused


def shard_cases(gen, world):
    cases = [_gather_case(gen, world, *c) for c in SHARD_CASES]
    cases += [_rs_case(gen, world, *c) for c in SHARD_CASES]
    cases += [_gather_case(gen, world, *AGAIN), _rs_case(gen, world, *AGAIN)]
    cases += [_gather_case(gen, world, *c) for c in NARROW] + [_rs_case(gen, world, *c) for c in NARROW]
    cases.append(_special_gather_case(gen, world))
    return cases + [_rs_case(gen, world, *ZERO), _gather_case(gen, world, *ZERO)]


# float16 and bfloat16 (mixed-precision FSDP's dtypes): a sum taken in float32 must be cast back
NARROW = (("f16_11", 11, torch.float16), ("bf16_6", 6, torch.bfloat16))


def _special_gather_case(gen, world):
    """A flat tensor holding +-inf, NaN and -0.0: each comes back where it was (a NaN sentinel for the padding,
    cut off with isnan, loses the real NaNs). The sign of a zero is not judged: the text says nothing of it, and
    a gather written as an all_reduce of zero-padded copies (held5_unusual_correct) turns -0.0 into +0.0."""
    case = _gather_case(gen, world, "special_9", 9, torch.float32)
    flat = case["flat"]
    for i, v in zip((0, 3, 4, 7, 8), (-0.0, float("inf"), -0.0, float("nan"), -float("inf"))):
        flat[i] = v
    shards = [s.clone() for s in torch.tensor_split(flat, world)]
    case.update(what="gather_shards(shard, 9) for a float32 (9,) tensor holding -0.0, inf, -inf and NaN",
                args=[(shards[r], 9) for r in range(world)])
    return case


@pytest.fixture
def shard_runs(student, course_seed):
    return C.cached_runs(student, course_seed, "shards", lambda gen: C.Runs(
        student, "gather_shards", [{"world": n, "cases": shard_cases(gen, n)} for n in WORLDS]
        + [{"world": 1, "cases": one_rank_cases(gen)}]))  # last: it shifts no other world's input


def one_rank_cases(gen):
    """A world of one rank (the text allows N = 1): the only shard is the whole tensor, and the sum over one rank is
    full itself, yet each call returns a new tensor. One launch of one rank, run only when
    test_shards_new_tensor_each_call reads it."""
    return [_gather_case(gen, 1, "f32_10", 10, torch.float32), _rs_case(gen, 1, "f32_10", 10, torch.float32),
            _gather_case(gen, 1, "i64_13", 13, torch.int64), _rs_case(gen, 1, "i64_13", 13, torch.int64)]


def _check_gather(runs, world, tag):
    case, frames = runs.case(world, f"gather_{tag}")
    for rank, f in enumerate(frames):
        got = C.returned_tensor(f, f"{case['what']} on rank {rank} of {world}")
        C.same(got, case["flat"], f"{case['what']} on rank {rank} of {world} (the whole flat tensor)")


def _check_reduce_scatter(runs, world, tag, check_dtype=False):
    case, frames = runs.case(world, f"rs_{tag}")
    fulls = [a[0] for a in case["args"]]
    total = torch.stack([t.to(torch.float64) if t.is_floating_point() else t for t in fulls]).sum(0)
    scale = float(torch.stack([t.to(torch.float64).abs() for t in fulls]).sum(0).max()) if total.numel() else 0.0
    for rank, f in enumerate(frames):
        what = f"{case['what']} on rank {rank} of {world}"
        got = C.returned_tensor(f, what)
        if check_dtype:
            expect(got.dtype == fulls[0].dtype, f"{what}: expected dtype {fulls[0].dtype}, got {got.dtype}")
        want = torch.tensor_split(total, world)[rank]
        C.close_values(got, want, f"{what} (shard {rank} of the sum, torch.tensor_split convention)",
                       **C.tolerance(fulls[0].dtype, world, scale))


@pytest.mark.task("shards")
def test_shards_new_tensor_each_call(shard_runs):
    """gather_shards and reduce_scatter_shards return a new tensor on every call (on a one-rank world too), not memory an earlier call returned"""
    for world in WORLDS:  # every case (length 0, one element, narrow dtypes too): never the input, never an old result
        for name in shard_runs.names(world):
            case, frames = shard_runs.case(world, name)
            for rank, f in enumerate(frames):
                expect(not f.get("shares_input"), f"{case['what']} on rank {rank} of {world}: returned its input "
                       f"itself (or a view of it); expected a new tensor (clause: each call returns a new tensor), "
                       f"also when it is empty")
                expect(not f.get("shares_earlier_result"), f"{case['what']} on rank {rank} of {world}: the tensor "
                       f"it returned lies in the memory of a tensor an earlier call on this rank returned (a buffer "
                       f"kept between calls); the text asks for a new tensor on every call")
    for name in shard_runs.names(1):  # one rank (N = 1 is a world too): the input is the answer, but not the result
        case, frames = shard_runs.case(1, name)
        expect(not frames[0].get("shares_input"), f"{case['what']} on a one-rank world: returned its input itself (or "
               f"a view of it); with one rank the result has the input's values, but the text asks for a new tensor "
               f"(clause: neither function modifies its input, and each call returns a new tensor)")
        tag = name.split("_", 1)[1]
        (_check_gather if name.startswith("gather_") else _check_reduce_scatter)(shard_runs, 1, tag)
    for world in (2, 3):
        _check_gather(shard_runs, world, AGAIN[0])
        _check_reduce_scatter(shard_runs, world, AGAIN[0])
        for fn in ("gather", "rs"):
            case, frames = shard_runs.case(world, f"{fn}_{AGAIN[0]}")
            for rank, f in enumerate(frames):
                expect(not f.get("shares_earlier_result"),
                       f"{case['what']} (a second call of this length) on rank {rank} of {world}: the tensor it "
                       f"returned lies in the memory of a tensor an earlier call on this rank returned (a buffer "
                       f"kept between calls), so that earlier result now holds this call's values; the text asks "
                       f"for a new tensor on every call")


@pytest.mark.task("shards")
@pytest.mark.parametrize("world", (3, 4))
def test_gather_shards_uneven(shard_runs, world):
    """gather_shards rebuilds the flat tensor from shards of unequal length (torch.tensor_split)"""
    for tag in ("f32_10", "f64_7", "f32_12"):
        _check_gather(shard_runs, world, tag)


@pytest.mark.task("shards")
@pytest.mark.parametrize("world", (3, 4))
def test_gather_shards_empty_shards(shard_runs, world):
    """gather_shards when numel is smaller than N (some shards are empty; numel = 0 too, in the shards' dtype)"""
    for tag in ("f32_2", "i64_1", "i64_0"):
        _check_gather(shard_runs, world, tag)


@pytest.mark.task("shards")
def test_gather_shards_keeps_dtype(shard_runs, student, course_seed):
    """gather_shards returns the shards' dtype (int64, int32, float64) exactly, on the shard's device"""
    for world in WORLDS:
        for tag in ("i64_13", "i32_9", "f64_7"):
            _check_gather(shard_runs, world, tag)
        # every gather case: numel 0 and below N, narrow dtypes, the special values
        C.on_inputs_device(shard_runs, world, shard_runs.names(world, "gather_"), made_from="shard")
    C.on_another_device(student, course_seed, "shards", shard_runs, "gather_shards", prefix="gather_", made_from="shard")


@pytest.mark.task("shards")
def test_gather_shards_nonfinite_values(shard_runs):
    """gather_shards returns flat with its inf, -inf and NaN values in place"""
    for world in (2, 4):
        case, frames = shard_runs.case(world, "gather_special_9")
        flat = case["flat"]
        for rank, f in enumerate(frames):
            what = f"{case['what']} on rank {rank} of {world} (clause: return flat itself)"
            got = C.returned_tensor(f, what)
            expect(tuple(got.shape) == tuple(flat.shape) and got.dtype == flat.dtype,
                   f"{what}: expected {C.describe(flat)}, got {C.describe(got)}")
            nan_at = [i for i, (g, w) in enumerate(zip(got.isnan().tolist(), flat.isnan().tolist())) if g != w]
            expect(not nan_at, f"{what}: NaN expected at flat indices {flat.isnan().nonzero().reshape(-1).tolist()}, "
                               f"got NaN at {got.isnan().nonzero().reshape(-1).tolist()}")
            keep = ~flat.isnan()
            C.same(got[keep], flat[keep], f"{what}, the values other than NaN")


@pytest.mark.task("shards")
def test_shards_narrow_float_dtypes(shard_runs):
    """gather_shards and reduce_scatter_shards keep float16 and bfloat16 (dtype, values and the sum)"""
    for world in (2, 3):
        for tag, _, _ in NARROW:
            _check_gather(shard_runs, world, tag)
            _check_reduce_scatter(shard_runs, world, tag, check_dtype=True)


@pytest.mark.task("shards")
@pytest.mark.parametrize("world", (3, 4))
def test_reduce_scatter_uneven(shard_runs, world):
    """reduce_scatter_shards returns this rank's tensor_split shard of the sum, for uneven lengths"""
    for tag in ("f32_10", "f64_7", "f32_12"):
        _check_reduce_scatter(shard_runs, world, tag)


@pytest.mark.task("shards")
@pytest.mark.parametrize("world", (3, 4))
def test_reduce_scatter_empty_shards(shard_runs, world):
    """reduce_scatter_shards when the length is smaller than N (empty shards; length 0 too, in full's dtype)"""
    for tag in ("f32_2", "i64_1", "i64_0"):
        _check_reduce_scatter(shard_runs, world, tag, check_dtype=True)


@pytest.mark.task("shards")
def test_reduce_scatter_integers_exact(shard_runs):
    """reduce_scatter_shards sums int64 exactly (values up to 2**60, past float64's 2**53)"""
    for world in WORLDS:
        _check_reduce_scatter(shard_runs, world, "i64_13")


@pytest.mark.task("shards")
def test_reduce_scatter_keeps_dtype(shard_runs, student, course_seed):
    """reduce_scatter_shards returns full's dtype (float64, int64, int32, float32), on full's device"""
    for world in WORLDS:
        for tag in ("f64_7", "i64_13", "i32_9", "f32_10"):
            _check_reduce_scatter(shard_runs, world, tag, check_dtype=True)
        # every reduce-scatter case: length 0 and below N, narrow dtypes
        C.on_inputs_device(shard_runs, world, shard_runs.names(world, "rs_"), made_from="full")
    C.on_another_device(student, course_seed, "shards", shard_runs, "gather_shards", prefix="rs_", made_from="full")


@pytest.mark.task("shards")
def test_shards_inputs_unchanged(shard_runs):
    """gather_shards and reduce_scatter_shards do not modify their input"""
    for world in WORLDS:
        # every case; float64 too: full.double() or .to(torch.float64) is full itself there, so an in-place sum on
        # it writes full; bit for bit, so that the NaN of the special case compares equal to itself
        for name in shard_runs.names(world):
            case, frames = shard_runs.case(world, name)
            for rank, f in enumerate(frames):
                C.same_bits(f["inputs_after"][0], case["args"][rank][0],
                            f"the input on rank {rank} of {world} after {case['what']} (clause: neither function "
                            f"modifies its input)")


# ------------------------------------------------------------------------------ group_sums
GROUPS = {
    3: {"pairs": [[0, 2], [1]], "rev": [[2, 1], [0]]},
    4: {"pairs": [[0, 2], [1, 3]], "single": [[3], [2, 0, 1]], "all": [[0, 1, 2, 3]],
        "alone": [[1], [0], [3], [2]]},
}


def group_cases(gen, world):
    cases = []
    for tag, groups in GROUPS[world].items():
        for dt, dtype, shape in (("f64", torch.float64, (2, 3)), ("i64", torch.int64, (5,))):
            xs = [C.rand(gen, shape, dtype, **_ints(dtype)) for _ in range(world)]
            cases.append({"name": f"{tag}_{dt}", "groups": groups, "what": f"group_sums(x, {groups}) with x "
                          f"{C.describe(xs[0])}", "args": [(xs[r], groups) for r in range(world)]})
    if world == 4:  # one element is no trivial case: still a sum over the group (last, so it shifts no input)
        groups = GROUPS[4]["pairs"]
        xs = [C.rand(gen, (), torch.float64) for _ in range(world)]
        cases.append({"name": "pairs_scalar", "groups": groups, "what": f"group_sums(x, {groups}) with a 0-d "
                      f"float64 x", "args": [(xs[r], groups) for r in range(world)]})
        # x's dtype whatever it is (half precision: a sum taken in float32 must be cast back), and an empty x
        # (still a new tensor, never x itself; int64, so that an early torch.empty(x.shape), float32, shows)
        for dt, dtype, shape in (("f16", torch.float16, (2, 3)), ("bf16", torch.bfloat16, (4,)),
                                 ("i32", torch.int32, (3,)), ("empty", torch.int64, (0, 3))):
            xs = [C.rand(gen, shape, dtype) for _ in range(world)]
            cases.append({"name": f"pairs_{dt}", "groups": groups, "what": f"group_sums(x, {groups}) with x "
                          f"{C.describe(xs[0])}", "args": [(xs[r], groups) for r in range(world)]})
    return cases


@pytest.fixture
def group_runs(student, course_seed):
    return C.cached_runs(student, course_seed, "group_sums", lambda gen: C.Runs(
        student, "group_sums", [{"world": n, "cases": group_cases(gen, n)} for n in GROUPS]))


def _check_group_sums(runs, world, name, check_dtype=False):
    case, frames = runs.case(world, name)
    xs = [a[0] for a in case["args"]]
    for rank, f in enumerate(frames):
        mine = next(g for g in case["groups"] if rank in g)
        what = f"{case['what']} on rank {rank} (its group {mine})"
        got = C.returned_tensor(f, what)
        if check_dtype:
            expect(got.dtype == xs[rank].dtype, f"{what}: expected dtype {xs[rank].dtype}, got {got.dtype} (clause: "
                                                f"return a new tensor of x's shape, dtype and device)")
        want = torch.stack([xs[q] for q in mine]).sum(0)
        scale = float(torch.stack([xs[q].to(torch.float64).abs() for q in mine]).sum(0).max()) if want.numel() else 0.0
        C.close_values(got, want, what, **C.tolerance(want.dtype, len(mine), scale))


@pytest.mark.task("group_sums")
@pytest.mark.parametrize("tag", ["pairs", "all"])
def test_group_sums_two_groups(group_runs, tag):
    """group_sums returns the sum over the ranks of this rank's group (float64, and int64 past 2**53 exactly)"""
    for dt in ("f64", "i64"):
        _check_group_sums(group_runs, 4, f"{tag}_{dt}")


@pytest.mark.task("group_sums")
def test_group_sums_unordered_and_unequal_groups(group_runs):
    """group_sums with groups listed out of rank order and of unequal sizes ([[3], [2, 0, 1]], [[2, 1], [0]])"""
    _check_group_sums(group_runs, 4, "single_f64")
    _check_group_sums(group_runs, 3, "rev_f64")
    _check_group_sums(group_runs, 3, "pairs_i64")


@pytest.mark.task("group_sums")
def test_group_sums_singleton_groups(group_runs):
    """group_sums where every rank is a group of its own returns a copy of x (a new tensor, not x)"""
    for dt in ("f64", "i64"):
        _check_group_sums(group_runs, 4, f"alone_{dt}")
    for world, name in ((4, "alone_f64"), (4, "single_i64"), (3, "pairs_f64")):
        case, frames = group_runs.case(world, name)
        for rank, f in enumerate(frames):
            mine = next(g for g in case["groups"] if rank in g)
            expect(not f.get("shares_input"), f"{case['what']} on rank {rank} (its group {mine}): returned x itself "
                                              f"(or a view of it); expected a new tensor, e.g. x.clone()")


@pytest.mark.task("group_sums")
def test_group_sums_keeps_dtype(group_runs, student, course_seed):
    """group_sums returns a tensor of x's dtype (float64, int64, int32, float16, bfloat16: not widened; an empty int64 x too) and device"""
    for name in ("pairs_f64", "pairs_i64", "single_i64", "pairs_i32", "pairs_f16", "pairs_bf16", "pairs_empty"):
        _check_group_sums(group_runs, 4, name, check_dtype=True)
    for world in GROUPS:  # every case, on both worlds
        C.on_inputs_device(group_runs, world, group_runs.names(world))
    C.on_another_device(student, course_seed, "group_sums", group_runs, "group_sums")


@pytest.mark.task("group_sums")
def test_group_sums_leaves_x_unchanged(group_runs):
    """group_sums does not modify x"""
    for world in GROUPS:
        for name in group_runs.names(world):  # every case: singletons, 0-d, narrow dtypes, empty
            case, frames = group_runs.case(world, name)
            for rank, f in enumerate(frames):
                C.same_bits(f["inputs_after"][0], case["args"][rank][0],
                            f"x on rank {rank} of {world} after {case['what']} (clause: leave x unchanged)")


@pytest.mark.task("group_sums")
def test_group_sums_new_tensor_every_case(group_runs):
    """group_sums returns a new tensor, never x itself or a view of it, for every x (an empty one too)"""
    for world in GROUPS:
        for name in group_runs.names(world):
            case, frames = group_runs.case(world, name)
            for rank, f in enumerate(frames):
                mine = next(g for g in case["groups"] if rank in g)
                expect(not f.get("shares_input"), f"{case['what']} on rank {rank} of {world} (its group {mine}): "
                       f"returned x itself (or a view of it); expected a new tensor of x's shape, dtype and device "
                       f"(clause: return a new tensor), also when x is empty")
    _check_group_sums(group_runs, 4, "pairs_empty", check_dtype=True)


@pytest.mark.task("group_sums")
def test_group_sums_all_reduce_on_own_group(group_runs):
    """group_sums calls dist.all_reduce on a group made with new_group, of its own group's size"""
    # all_f64: a group of every rank is still the group made for it, not the default group
    for name in ("pairs_f64", "single_f64", "alone_i64", "all_f64"):
        case, frames = group_runs.case(4, name)
        for rank, f in enumerate(frames):
            mine = next(g for g in case["groups"] if rank in g)
            sizes = [c["group_size"] for c in f["collectives"] if c["name"] == "allreduce"]
            ok = sizes == [len(mine)] or (len(mine) == 1 and not sizes)  # alone: a plain copy is fine too
            expect(ok, f"{case['what']} on rank {rank}: expected one all_reduce on a group of "
                                         f"{len(mine)} rank(s) (its group {mine}), got all_reduce calls on groups "
                                         f"of sizes {sizes[:6]}")
            on_world = [c for c in f["collectives"] if c["name"] == "allreduce" and c.get("default_group")]
            expect(not on_world, f"{case['what']} on rank {rank}: the all_reduce ran on the default group (every "
                                 f"rank), not on the group made with dist.new_group for {mine} (clause: computed with "
                                 f"dist.all_reduce on that group; pass group= the group new_group returned, even when "
                                 f"it holds every rank)")
        _check_group_sums(group_runs, 4, name)  # the calls counted are those of this run


@pytest.mark.task("group_sums")
def test_group_sums_one_element(group_runs):
    """group_sums of a 0-d x (one element) returns the sum over the group as a new tensor"""
    _check_group_sums(group_runs, 4, "pairs_scalar", check_dtype=True)
    case, frames = group_runs.case(4, "pairs_scalar")
    for rank, f in enumerate(frames):
        expect(not f.get("shares_input"), f"{case['what']} on rank {rank}: returned x itself (or a view of it), "
                                          f"expected a new tensor")


@pytest.mark.task("group_sums")
def test_group_sums_new_group_per_entry(group_runs):
    """group_sums makes one group per entry of groups with dist.new_group on every rank (groups of one rank too)"""
    # the first case of each groups list in its world: a solution that caches its groups may reuse them later
    for world, name in ((4, "pairs_f64"), (4, "single_f64"), (4, "alone_f64"), (3, "rev_f64")):
        case, frames = group_runs.case(world, name)
        for rank, f in enumerate(frames):
            made = f.get("new_groups")
            if made is None:
                continue  # this PyTorch has no group counter to read
            expect(made == len(case["groups"]), f"{case['what']} on rank {rank} of {world}: expected "
                   f"{len(case['groups'])} dist.new_group calls (one per entry of groups, on every rank, groups "
                   f"of one rank and groups it is not in included), got {made}")
            order = f.get("group_ranks")
            want = [sorted(g) for g in case["groups"]]
            expect(order is None or order == want, f"{case['what']} on rank {rank} of {world}: expected the "
                   f"groups to be created in the order of groups, {want}; dist.new_group was called with {order}")
        _check_group_sums(group_runs, world, name)
