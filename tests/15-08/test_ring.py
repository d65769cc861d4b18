"""Hidden checks for ring_pass and ring_all_reduce (15-08, judge side)."""
import importlib.util
from pathlib import Path

import pytest
import torch

from course.judge.expect import expect, fail

_spec = importlib.util.spec_from_file_location("_15_08_common_ring", Path(__file__).with_name("_common.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

WORLDS = (2, 3, 4)
NONCONTIG = ("transposed", "strided", "channels_last")  # strategies.LAYOUTS that are not contiguous in 4-D


def noncontig_case(fn, gen, per_rank, dtype):
    """x in a non-contiguous memory layout drawn per student (the same on every rank), built next to the
    submission with probelib.relayout (the judge's strategies use it too)."""
    layout = NONCONTIG[int(torch.randint(len(NONCONTIG), (1,), generator=gen))]
    shape = (2, 3, 2, 4)
    return {"name": "noncontig", "what": f"{fn}(x) with x {str(dtype).replace('torch.', '')} {shape} laid out "
                                         f"non-contiguously ({layout.replace('_', '-')} memory)",
            "args": per_rank(shape, dtype), "layouts": {0: layout}, "layout": layout}


def other_layouts(fn, gen, per_rank, dtype, drawn):
    """The layouts the drawn case did not use, so that every seed sees all three ("any memory layout"):
    empty_like or clone keeps a transposed or channels-last x's strides but not a sliced one's. Added at the
    end of a list, so they shift no other case's input."""
    shape = (2, 3, 2, 4)
    return [{"name": f"noncontig_{layout}", "what": f"{fn}(x) with x {str(dtype).replace('torch.', '')} {shape} "
             f"laid out non-contiguously ({layout.replace('_', '-')} memory)", "args": per_rank(shape, dtype),
             "layouts": {0: layout}} for layout in NONCONTIG if layout != drawn["layout"]]


# ------------------------------------------------------------------------------ ring_pass
def ring_pass_cases(gen, world):
    def per_rank(shape, dtype, **kw):
        return [(C.rand(gen, shape, dtype, **kw),) for _ in range(world)]

    cases = [
        {"name": "f32", "what": "ring_pass(x) with x float32 (3, 5)", "args": per_rank((3, 5), torch.float32)},
        {"name": "i64", "what": "ring_pass(x) with x int64 (7,), values up to 2**60",  # a float64 trip rounds them
         "args": per_rank((7,), torch.int64, low=-2**60, high=2**60)},
        {"name": "f16", "what": "ring_pass(x) with x float16 (2, 2, 3)", "args": per_rank((2, 2, 3), torch.float16)},
        {"name": "u8", "what": "ring_pass(x) with x uint8 (5,)",
         "args": [(torch.randint(0, 256, (5,), generator=gen, dtype=torch.uint8),) for _ in range(world)]},
        {"name": "scalar", "what": "ring_pass(x) with a 0-d float64 x", "args": per_rank((), torch.float64)},
        {"name": "empty", "what": "ring_pass(x) with an empty x of shape (0, 3)", "args": per_rank((0, 3), torch.float32)},
        {"name": "big", "what": "ring_pass(x) with x float32 (256, 256)", "args": per_rank((256, 256), torch.float32)},
        noncontig_case("ring_pass", gen, per_rank, torch.float32),
        # the shape and dtype of "f32" again, in the same group: a receive buffer kept between calls shows here
        {"name": "again", "what": "a second ring_pass(x) with x float32 (3, 5) in the same group",
         "args": per_rank((3, 5), torch.float32)},
    ]
    drawn = next(c for c in cases if c["name"] == "noncontig")
    cases += other_layouts("ring_pass", gen, per_rank, torch.float32, drawn)
    # last, so it shifts no other input: a message moves bits, so -0.0, NaN and +-inf arrive as they were sent
    # (a copy made as zeros + x turns -0.0 into +0.0)
    return cases + [{"name": "signed", "what": "ring_pass(x) with x float32 (2, 4) holding -0.0, NaN, inf and -inf",
                     "args": [(_with_specials(C.rand(gen, (2, 4), torch.float32)),) for _ in range(world)]}]


def _with_specials(x):
    flat = x.view(-1)
    for i, v in zip((0, 2, 3, 5, 6), (-0.0, float("nan"), -0.0, float("inf"), -float("inf"))):
        flat[i] = v
    return x


@pytest.fixture
def ring_pass_runs(student, course_seed):
    return C.cached_runs(student, course_seed, "ring_pass", lambda gen: C.Runs(
        student, "ring_pass", [{"world": n, "cases": ring_pass_cases(gen, n)} for n in WORLDS]))


def _check_received(runs, world, name):
    case, frames = runs.case(world, name)
    for rank, f in enumerate(frames):
        left = (rank - 1) % world
        got = C.returned_tensor(f, f"{case['what']} on rank {rank} of {world}")
        C.same_bits(got, case["args"][left][0],  # a message moves bits: -0.0 and NaN too
                    f"{case['what']} on rank {rank} of {world} (expected rank {left}'s x)")


@pytest.mark.task("ring_pass")
@pytest.mark.parametrize("world", WORLDS)
def test_ring_pass_receives_left_neighbour(ring_pass_runs, world):
    """ring_pass returns the x of the left neighbour (rank - 1) % N"""
    _check_received(ring_pass_runs, world, "f32")


@pytest.mark.task("ring_pass")
def test_ring_pass_keeps_dtype_and_shape(ring_pass_runs, student, course_seed):
    """ring_pass returns the left neighbour's tensor with its shape, dtype (int64, float16, uint8, 0-d) and device"""
    for name in ("i64", "f16", "u8", "scalar"):
        _check_received(ring_pass_runs, 3, name)
    for world in WORLDS:  # every case (the empty, large and repeated ones too), on every world
        C.on_inputs_device(ring_pass_runs, world, ring_pass_runs.names(world))
    C.on_another_device(student, course_seed, "ring_pass", ring_pass_runs, "ring_pass")


@pytest.mark.task("ring_pass")
def test_ring_pass_empty_and_large(ring_pass_runs):
    """ring_pass handles an empty tensor and a 256 KiB one on 4 ranks"""
    for name in ("empty", "big"):
        _check_received(ring_pass_runs, 4, name)


@pytest.mark.task("ring_pass")
@pytest.mark.parametrize("world", (2, 3))
def test_ring_pass_noncontiguous_input(ring_pass_runs, world):
    """ring_pass accepts a non-contiguous x (gloo sends only contiguous memory)"""
    for name in ring_pass_runs.names(world, "noncontig"):  # transposed, strided and channels-last, every seed
        _check_received(ring_pass_runs, world, name)


@pytest.mark.task("ring_pass")
def test_ring_pass_leaves_x_unchanged(ring_pass_runs):
    """ring_pass does not modify its argument x"""
    for world in WORLDS:
        for name in ring_pass_runs.names(world):  # every case: empty, 0-d, narrow dtypes, non-contiguous
            case, frames = ring_pass_runs.case(world, name)
            for rank, f in enumerate(frames):
                C.same_bits(f["inputs_after"][0], case["args"][rank][0],
                            f"x on rank {rank} of {world} after {case['what']} (clause: x must not be modified)")


@pytest.mark.task("ring_pass")
def test_ring_pass_new_tensor_each_call(ring_pass_runs):
    """ring_pass returns a new tensor on every call, not memory that an earlier call returned"""
    for world in WORLDS:  # never x itself or a view of it, in any case (an empty x too)
        for name in ring_pass_runs.names(world):
            case, frames = ring_pass_runs.case(world, name)
            for rank, f in enumerate(frames):
                expect(not f.get("shares_input"), f"{case['what']} on rank {rank} of {world}: returned x itself "
                       f"(or a view of it); expected a new tensor (clause: return a new tensor), also when x is empty")
    for world in (2, 3):
        _check_received(ring_pass_runs, world, "again")
        case, frames = ring_pass_runs.case(world, "again")
        for rank, f in enumerate(frames):
            expect(not f.get("shares_earlier_result"), f"{case['what']} on rank {rank} of {world}: the tensor it "
                   f"returned lies in the memory of a tensor that an earlier ring_pass call on this rank returned "
                   f"(a receive buffer kept between calls), so that earlier result now holds this call's values; "
                   f"the text asks for a new tensor on every call")


@pytest.mark.task("ring_pass")
def test_ring_pass_values_bit_for_bit(ring_pass_runs):
    """ring_pass returns the left neighbour's values bit for bit (-0.0 stays -0.0; NaN, inf and -inf in place)"""
    for world in WORLDS:
        case, frames = ring_pass_runs.case(world, "signed")
        for rank, f in enumerate(frames):
            left = (rank - 1) % world
            what = (f"{case['what']} on rank {rank} of {world} (expected rank {left}'s x bit for bit; clause: return "
                    f"a new tensor with the values of the left neighbour's x, bit for bit)")
            C.same_bits(C.returned_tensor(f, what), case["args"][left][0], what)


@pytest.mark.task("ring_pass")
@pytest.mark.parametrize("world", WORLDS)  # 2 ranks too: left and right are one rank there, still one message
def test_ring_pass_sends_one_message_right(ring_pass_runs, world):
    """ring_pass: each rank sends exactly one message, x.numel() elements to (rank + 1) % N, and no collective"""
    # every case: an empty x is still one message (of 0 bytes); a 0-d, narrow-dtype or non-contiguous x too
    for name in ring_pass_runs.names(world):
        _check_received(ring_pass_runs, world, name)  # the messages of this run carry these ranks' x
        case, frames = ring_pass_runs.case(world, name)
        for rank, f in enumerate(frames):
            x = case["args"][rank][0]
            sends = [(s["dst"], s["bytes"]) for s in f["sends"]]
            want = [((rank + 1) % world, x.numel() * x.element_size())]
            expect(sends == want, f"{case['what']} on rank {rank} of {world}: expected exactly one message of "
                                  f"{want[0][1]} bytes to rank {want[0][0]} (one per call, also when x is empty), "
                                  f"got (destination, bytes) {sends[:6]}")
            names = [c["name"] for c in f["collectives"]]
            expect(not names, f"{case['what']} on rank {rank} of {world}: point-to-point calls only, but it "
                              f"called the collective(s) {names[:4]}")


# ------------------------------------------------------------------------------ ring_all_reduce
def all_reduce_cases(gen, world):
    def per_rank(shape, dtype, **kw):
        return [(C.rand(gen, shape, dtype, **kw),) for _ in range(world)]

    cases = [
        {"name": "f64", "what": "ring_all_reduce(x) with x float64 (10,)", "args": per_rank((10,), torch.float64)},
        {"name": "f32", "what": "ring_all_reduce(x) with x float32 (3, 5)", "args": per_rank((3, 5), torch.float32)},
        {"name": "i64", "what": "ring_all_reduce(x) with x int64 (2, 7)",
         "args": per_rank((2, 7), torch.int64, low=-2**60, high=2**60)},  # past 2**53: a float64 sum rounds
        {"name": "i32", "what": "ring_all_reduce(x) with x int32 (11,)", "args": per_rank((11,), torch.int32)},
        {"name": "big", "what": "ring_all_reduce(x) with x float32 (1001,)", "args": per_rank((1001,), torch.float32)},
        {"name": "f32_large", "what": "ring_all_reduce(x) with x float32 (6,) of magnitude 1e30",
         "args": [(C.rand(gen, (6,), torch.float32) * 1e30,) for _ in range(world)]},
        {"name": "few", "what": "ring_all_reduce(x) with x float64 (2,), fewer elements than ranks",
         "args": per_rank((2,), torch.float64)},
        {"name": "one", "what": "ring_all_reduce(x) with x int64 (1, 1)", "args": per_rank((1, 1), torch.int64)},
        {"name": "scalar", "what": "ring_all_reduce(x) with a 0-d float32 x", "args": per_rank((), torch.float32)},
        # empty along a middle dim: an answer that returns a 1-D empty tensor gets the shape wrong; int64, so that
        # an early torch.empty(x.shape) (the default float32) gets the dtype wrong (draws nothing from gen)
        {"name": "empty", "what": "ring_all_reduce(x) with an empty int64 x of shape (3, 0, 2)",
         "args": per_rank((3, 0, 2), torch.int64)},
        noncontig_case("ring_all_reduce", gen, per_rank, torch.float64),
        # n = N: N divides n and there are no more elements than ranks (the bandwidth bound is 2(N-1))
        {"name": "per_rank", "what": f"ring_all_reduce(x) with x float32 ({world},), one element per rank",
         "args": per_rank((world,), torch.float32)},
        # the shape and dtype of "f64" again, in the same group: a workspace kept between calls shows here
        {"name": "again", "what": "a second ring_all_reduce(x) with x float64 (10,) in the same group",
         "args": per_rank((10,), torch.float64)},
        # the narrow float and integer dtypes (last, so they shift no earlier input): "a float or integer dtype";
        # small integers, so that no sum wraps on 4 ranks
        {"name": "f16", "what": "ring_all_reduce(x) with x float16 (9,)", "args": per_rank((9,), torch.float16)},
        {"name": "bf16", "what": "ring_all_reduce(x) with x bfloat16 (2, 5)", "args": per_rank((2, 5), torch.bfloat16)},
        {"name": "u8", "what": "ring_all_reduce(x) with x uint8 (7,)",
         "args": per_rank((7,), torch.uint8, low=0, high=60)},
        {"name": "i8", "what": "ring_all_reduce(x) with x int8 (3, 3)",
         "args": per_rank((3, 3), torch.int8, low=-30, high=30)},
    ]
    drawn = next(c for c in cases if c["name"] == "noncontig")
    cases += other_layouts("ring_all_reduce", gen, per_rank, torch.float64, drawn)
    # n = N - 1 (last, so it shifts no other input): fewer elements than ranks, the bound 2(N-1); gathered at one
    # rank, that rank sends (N-1)(N-1) elements, more than the bound from 4 ranks on
    cases.append({"name": "short", "what": f"ring_all_reduce(x) with x float64 ({world - 1},), one element fewer "
                                            f"than ranks", "args": per_rank((world - 1,), torch.float64)})
    # last, so it shifts no other input: float x may hold inf and NaN. Every rank has +inf at index 1 (chunk 0,
    # which all but one rank overwrite in the all-gather), rank 0 +inf and rank 1 -inf at index 0 (NaN), rank 0
    # -inf at index 2, the last rank NaN at the end
    xs = [C.rand(gen, (2 * world + 1,), torch.float32) for _ in range(world)]
    for x in xs:
        x[1] = float("inf")
    xs[0][0], xs[1][0], xs[0][2], xs[-1][-1] = float("inf"), -float("inf"), -float("inf"), float("nan")
    return cases + [{"name": "nonfinite", "what": f"ring_all_reduce(x) with x float32 ({2 * world + 1},) holding "
                     f"inf on every rank at index 1, inf + -inf at index 0, -inf at index 2 and NaN at the end",
                     "args": [(x,) for x in xs]}]


@pytest.fixture
def all_reduce_runs(student, course_seed):
    return C.cached_runs(student, course_seed, "ring_all_reduce", lambda gen: C.Runs(
        student, "ring_all_reduce", [{"world": n, "cases": all_reduce_cases(gen, n)} for n in WORLDS]
        + [{"world": 1, "cases": one_rank_cases(gen)}]))  # last: it shifts no other world's input


def one_rank_cases(gen):
    """A world of one rank (the text allows N = 1): the sum is a copy of x, never x itself. One launch of one rank,
    run only when test_all_reduce_new_tensor_each_call reads it."""
    def one(shape, dtype):
        return [(C.rand(gen, shape, dtype),)]
    return [{"name": "one_f64", "what": "ring_all_reduce(x) on a one-rank world, x float64 (10,)",
             "args": one((10,), torch.float64)},
            {"name": "one_scalar", "what": "ring_all_reduce(x) on a one-rank world, a 0-d int64 x",
             "args": one((), torch.int64)},
            {"name": "one_2d", "what": "ring_all_reduce(x) on a one-rank world, x float32 (3, 4)",
             "args": one((3, 4), torch.float32)}]


def _check_sum(runs, world, name):
    """Every rank's result against the judge's float64 sum, in the tolerance of x's dtype (the scale from the
    finite terms; inf, -inf and NaN where the sum has them: inf + -inf is NaN in any order)."""
    case, frames = runs.case(world, name)
    xs = [a[0] for a in case["args"]]
    exact = torch.stack([x.to(torch.float64) for x in xs]).sum(0) if xs[0].is_floating_point() \
        else torch.stack(xs).sum(0)
    mags = torch.stack([x.to(torch.float64).abs() for x in xs])
    scale = float(mags.nan_to_num(0.0, 0.0, 0.0).sum(0).max()) if xs[0].numel() else 0.0
    tol = C.tolerance(xs[0].dtype, world, scale)
    for rank, f in enumerate(frames):
        got = C.returned_tensor(f, f"{case['what']} on rank {rank} of {world}")
        C.close_values(got, exact, f"{case['what']} on rank {rank} of {world} (the sum over all ranks)",
                       equal_nan=True, **tol)


@pytest.mark.task("ring_all_reduce")
@pytest.mark.parametrize("world", WORLDS)
def test_all_reduce_sums_uneven_lengths(all_reduce_runs, world):
    """ring_all_reduce returns the sum over all ranks for lengths N does not divide (float64, float32)"""
    for name in ("f64", "f32", "big"):
        _check_sum(all_reduce_runs, world, name)


@pytest.mark.task("ring_all_reduce")
@pytest.mark.parametrize("world", (3, 4))
def test_all_reduce_integer_sums_exact(all_reduce_runs, world):
    """ring_all_reduce sums int64 (values up to 2**60, past float64's 2**53) and int32 tensors exactly"""
    for name in ("i64", "i32"):
        _check_sum(all_reduce_runs, world, name)


@pytest.mark.task("ring_all_reduce")
def test_all_reduce_large_magnitudes(all_reduce_runs):
    """ring_all_reduce keeps float32 values of magnitude 1e30 (no overflow in the partial sums)"""
    _check_sum(all_reduce_runs, 4, "f32_large")


@pytest.mark.task("ring_all_reduce")
@pytest.mark.parametrize("world", (3, 4))
def test_all_reduce_fewer_elements_than_ranks(all_reduce_runs, world):
    """ring_all_reduce with fewer elements than ranks (empty chunks), one element, and a 0-d tensor"""
    for name in ("few", "one", "scalar"):
        _check_sum(all_reduce_runs, world, name)


@pytest.mark.task("ring_all_reduce", weight=0.1)  # its right answer is a constant (an empty tensor): worth little
def test_all_reduce_empty_tensor(all_reduce_runs):
    """ring_all_reduce of an empty int64 tensor of shape (3, 0, 2) returns a new empty tensor of that shape (not x itself)"""
    _check_sum(all_reduce_runs, 3, "empty")
    case, frames = all_reduce_runs.case(3, "empty")
    for rank, f in enumerate(frames):
        expect(not f.get("shares_input"), f"{case['what']} on rank {rank} of 3: returned x itself (or a view of "
                                          f"it); expected a new tensor, also when x is empty")


@pytest.mark.task("ring_all_reduce")
def test_all_reduce_nonfinite_values(all_reduce_runs):
    """ring_all_reduce of float x holding inf, -inf and NaN: inf where the sum is inf, NaN only where it is NaN (inf + -inf)"""
    for world in WORLDS:
        case, frames = all_reduce_runs.case(world, "nonfinite")
        exact = torch.stack([a[0].to(torch.float64) for a in case["args"]]).sum(0)
        for rank, f in enumerate(frames):
            what = f"{case['what']} on rank {rank} of {world} (clause: the element-wise sum of x over all ranks)"
            got = C.returned_tensor(f, what).to(torch.float64)
            expect(tuple(got.shape) == tuple(exact.shape), f"{what}: expected shape {tuple(exact.shape)}, "
                                                           f"got {tuple(got.shape)}")
            for i, (g, w) in enumerate(zip(got.tolist(), exact.tolist())):
                if w != w or abs(w) == float("inf") or g != g or abs(g) == float("inf"):
                    expect(repr(g) == repr(w), f"{what}: at index {i} expected {w!r}, got {g!r} (a sum with an inf "
                                               f"term is inf unless an -inf meets it; inf * 0 is NaN, so a chunk "
                                               f"cleared by multiplying with 0 turns an inf into NaN)")
        _check_sum(all_reduce_runs, world, "nonfinite")


@pytest.mark.task("ring_all_reduce")
def test_all_reduce_new_tensor_each_call(all_reduce_runs):
    """ring_all_reduce returns a new tensor on every call (on a one-rank world too), not memory that an earlier call returned"""
    for world in WORLDS:  # never x itself or a view of it, in any case (0-d, one element, narrow dtypes)
        for name in all_reduce_runs.names(world):
            case, frames = all_reduce_runs.case(world, name)
            for rank, f in enumerate(frames):
                expect(not f.get("shares_input"), f"{case['what']} on rank {rank} of {world}: returned x itself "
                       f"(or a view of it); expected a new tensor (clause: return a new tensor of x's shape and dtype)")
    for world in (2, 3):
        _check_sum(all_reduce_runs, world, "again")
        case, frames = all_reduce_runs.case(world, "again")
        for rank, f in enumerate(frames):
            expect(not f.get("shares_earlier_result"), f"{case['what']} on rank {rank} of {world}: the tensor it "
                   f"returned lies in the memory of a tensor that an earlier ring_all_reduce call on this rank "
                   f"returned (a workspace kept between calls), so that earlier sum now holds this call's values; "
                   f"the text asks for a new tensor (clause: return a new tensor of x's shape and dtype)")
    for name in all_reduce_runs.names(1):  # one rank (N = 1 is a world too): nothing to send, still a new tensor
        case, frames = all_reduce_runs.case(1, name)
        expect(not frames[0].get("shares_input"), f"{case['what']}: returned x itself (or a view of it); with one "
               f"rank the sum is a copy of x, and the text asks for a new tensor (clause: return a new tensor of "
               f"x's shape and dtype; leave x unchanged)")
        _check_sum(all_reduce_runs, 1, name)


@pytest.mark.task("ring_all_reduce")
def test_all_reduce_noncontiguous_input(all_reduce_runs):
    """ring_all_reduce accepts a non-contiguous x"""
    for world in (2, 4):
        for name in all_reduce_runs.names(world, "noncontig"):  # transposed, strided and channels-last, every seed
            _check_sum(all_reduce_runs, world, name)


@pytest.mark.task("ring_all_reduce")
def test_all_reduce_keeps_dtype(all_reduce_runs, student, course_seed):
    """ring_all_reduce returns a tensor of x's dtype (float64, float32, int64, int32, an empty int64 x too) and device"""
    for name in ("f64", "f32", "i64", "i32", "one", "scalar", "empty"):
        case, frames = all_reduce_runs.case(3, name)
        for rank, f in enumerate(frames):
            got = C.returned_tensor(f, f"{case['what']} on rank {rank} of 3")
            want = case["args"][rank][0].dtype
            expect(got.dtype == want, f"{case['what']} on rank {rank} of 3: expected dtype {want}, got {got.dtype} "
                                      f"(clause: return a new tensor of x's shape and dtype, for any shape, an "
                                      f"empty one too)")
        _check_sum(all_reduce_runs, 3, name)
    for world in WORLDS:  # every case (empty, 0-d, non-contiguous, narrow dtypes too), on every world
        C.on_inputs_device(all_reduce_runs, world, all_reduce_runs.names(world))
    C.on_another_device(student, course_seed, "ring_all_reduce", all_reduce_runs, "ring_all_reduce")


@pytest.mark.task("ring_all_reduce")
def test_all_reduce_narrow_dtypes(all_reduce_runs):
    """ring_all_reduce of float16, bfloat16, uint8 and int8 x returns the sum in x's dtype (not widened)"""
    for world in (2, 4):
        for name in ("f16", "bf16", "u8", "i8"):
            case, frames = all_reduce_runs.case(world, name)
            for rank, f in enumerate(frames):
                got = C.returned_tensor(f, f"{case['what']} on rank {rank} of {world}")
                want = case["args"][rank][0].dtype
                expect(got.dtype == want, f"{case['what']} on rank {rank} of {world}: expected dtype {want}, got "
                                          f"{got.dtype} (clause: x may have any float or integer dtype, and the "
                                          f"result has x's dtype; a sum taken wider must be cast back)")
            _check_sum(all_reduce_runs, world, name)


@pytest.mark.task("ring_all_reduce")
def test_all_reduce_leaves_x_unchanged(all_reduce_runs):
    """ring_all_reduce does not modify x"""
    for world in WORLDS:
        for name in all_reduce_runs.names(world):  # every case: 0-d, one element, empty, narrow dtypes
            case, frames = all_reduce_runs.case(world, name)
            for rank, f in enumerate(frames):
                C.same_bits(f["inputs_after"][0], case["args"][rank][0],
                            f"x on rank {rank} of {world} after {case['what']} (clause: leave x unchanged)")


@pytest.mark.task("ring_all_reduce")
def test_all_reduce_uses_no_collective(all_reduce_runs):
    """ring_all_reduce uses point-to-point messages only: no collective call"""
    for world in WORLDS:
        for name in all_reduce_runs.names(world):  # every case: a 0-d, one-element, empty or narrow x too
            case, frames = all_reduce_runs.case(world, name)
            for rank, f in enumerate(frames):
                names = [c["name"] for c in f["collectives"]]
                expect(not names, f"{case['what']} on rank {rank} of {world}: isend/irecv only, but it called "
                                  f"the collective(s) {names[:4]} (clause: point-to-point messages only, no "
                                  f"collective)")
                if name in ("f64", "big"):
                    expect(f["sends"], f"{case['what']} on rank {rank} of {world}: it sent no message at all")
            _check_sum(all_reduce_runs, world, name)


@pytest.mark.task("ring_all_reduce")
@pytest.mark.parametrize("world", WORLDS)  # 2 ranks too: the only neighbour, but still one chunk per message
def test_all_reduce_along_the_ring(all_reduce_runs, world):
    """ring_all_reduce sends every message to one ring neighbour (the ring above, or run leftwards), one chunk (at most ceil(n/N) elements) per message"""
    # every case (fewer elements than ranks, 0-d, integer or narrow x is no reason to leave the ring); a ring that
    # skips the messages of empty chunks may send nothing for an empty x
    for name in all_reduce_runs.names(world):
        case, frames = all_reduce_runs.case(world, name)
        x = case["args"][0][0]
        chunk = -(-x.numel() // world)
        for rank, f in enumerate(frames):
            dsts = sorted({s["dst"] for s in f["sends"]})
            ok = dsts in ([(rank + 1) % world], [(rank - 1) % world]) or (not dsts and name != "f64")
            expect(ok, f"{case['what']} on rank {rank} of {world}: sent messages to ranks {dsts}; the ring sends "
                       f"every chunk to one neighbour, (rank + 1) % N = {(rank + 1) % world} (or, run leftwards, "
                       f"(rank - 1) % N), and receives from the other")
            # the ring moves chunks (tensor_split(flat, N)): a message of more than ceil(n/N) elements is not one,
            # e.g. two ranks swapping their whole tensors and adding (a direct exchange, not the ring)
            big = [s["bytes"] // x.element_size() for s in f["sends"] if s["bytes"] > chunk * x.element_size()]
            expect(not big, f"{case['what']} on rank {rank} of {world}: sent a message of {big[0] if big else 0} "
                            f"elements, more than one chunk (ceil(n/N) = {chunk} for n = {x.numel()}); the ring above "
                            f"sends one chunk of torch.tensor_split(flat, N) per message, N-1 in the reduce-scatter "
                            f"and N-1 in the all-gather (clause: computed with the ring above)")
        _check_sum(all_reduce_runs, world, name)  # the messages counted are those of this run


def _check_bandwidth(runs, world, name):
    case, frames = runs.case(world, name)
    x = case["args"][0][0]
    n = x.numel()
    limit = 2 * (world - 1) * -(-n // world)
    for rank, f in enumerate(frames):
        sent = sum(s["bytes"] for s in f["sends"]) / x.element_size()
        if sent > limit:
            fail(f"{case['what']} on rank {rank} of {world}: it sent {sent:g} elements, more than "
                 f"2(N-1)·ceil(n/N) = {limit} (the ring sends about 2(N-1)/N·n per rank; gathering at one "
                 f"rank makes that rank send (N-1)·n)")


@pytest.mark.task("ring_all_reduce")
@pytest.mark.parametrize("world", (3, 4))
def test_all_reduce_bandwidth_optimal(all_reduce_runs, world):
    """ring_all_reduce: no rank sends more than 2(N-1)·ceil(n/N) elements (every case: N dividing n, n = N, n = N-1, n = 0, 0-d, narrow dtypes)"""
    for name in all_reduce_runs.names(world):  # every case: 0-d, one element, narrow dtypes, any layout
        _check_bandwidth(all_reduce_runs, world, name)
        _check_sum(all_reduce_runs, world, name)  # the bytes counted are those of this run


@pytest.mark.gpu
@pytest.mark.task("ring_all_reduce")
def test_all_reduce_nccl_two_gpus(student, course_seed):
    """ring_all_reduce works unchanged with NCCL on 2 GPUs: the sums and the bandwidth bound"""
    C.need_gpus(2)
    gen = C.task_gen(course_seed, "ring_all_reduce_nccl")
    cases = [c for c in all_reduce_cases(gen, 2) if c["name"] in ("f32", "i64", "big", "few")]
    runs = C.Runs(student, "ring_all_reduce", [{"world": 2, "cases": cases}], backend="nccl")
    for name in ("f32", "i64", "big", "few"):
        _check_sum(runs, 2, name)
        _check_bandwidth(runs, 2, name)
