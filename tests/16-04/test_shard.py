"""Hidden checks of flatten_shard and unflatten_shards (exercise 1), against the judge's own torch.cat + pad."""
import math

import pytest
import torch

from course.judge.expect import expect, fail

pytestmark = pytest.mark.task("shard")

# (shape list, world): totals that the world size does not divide, fewer elements than ranks, 0-d and empty
# tensors, one tensor, divisible totals, world 1
CASES = [
    ([(3, 4), (5,), (), (0, 3), (2, 3, 1)], 4),   # n = 24: divisible, with a 0-d and an empty tensor
    ([(3, 4), (5,), (), (7,)], 3),                 # n = 25
    ([(2, 2), (3,)], 5),                           # n = 7: k = 2, three zeros of padding
    ([(1,), ()], 4),                               # n = 2 < 4: two shards of padding only
    ([(6,)], 3),                                   # one 1-D tensor, divisible
    ([(2, 5), (4,)], 1),                           # world 1: the whole flat tensor
    ([(0,), (2, 0)], 3),                           # every tensor empty (held-out round 6): n = 0, k = 0
]


def _tensors(gen, shapes, dtype):
    if dtype.is_floating_point:
        return [torch.randn(s, generator=gen, dtype=torch.float64).to(dtype) for s in shapes]
    return [torch.randint(-50, 50, s, generator=gen, dtype=dtype) for s in shapes]


def _with_edges(tensors, dtype):
    """The tensors with their first elements (in list and row-major order) set to the dtype's edge values: for
    floats -0.0, +-inf, NaN, the largest and the smallest normal and subnormal values; for int64 its extremes and
    odd values beyond 2**53 (held-out round 12: a float64 buffer rounds them; += turns -0.0 into +0.0)."""
    if dtype.is_floating_point:
        fi = torch.finfo(dtype)
        edges = [-0.0, math.inf, -math.inf, math.nan, fi.max, -fi.max, fi.tiny, fi.smallest_normal * 2**-3, -0.0]
    else:
        ii = torch.iinfo(dtype)
        edges = [ii.max, ii.min, 2**53 + 1, -(2**60 + 1), ii.max - 2, ii.min + 1]
    out, j = [], 0
    for t in tensors:
        t = t.clone()
        m = min(t.numel(), len(edges) - j)
        if m > 0:
            t.view(-1)[:m] = torch.tensor(edges[j:j + m], dtype=dtype)
            j += m
        out.append(t)
    return out


def _bits(t):
    """The tensor's elements as integers of the same width: equal bits, so -0.0 != 0.0 and NaN == NaN."""
    ints = {2: torch.int16, 4: torch.int32, 8: torch.int64}
    return t.view(ints[t.element_size()]) if t.dtype.is_floating_point else t


def _expected(tensors, world, rank):
    flat = torch.cat([t.reshape(-1) for t in tensors])
    k = math.ceil(flat.numel() / world)
    padded = torch.cat([flat, torch.zeros(world * k - flat.numel(), dtype=flat.dtype)])
    return padded[rank * k:(rank + 1) * k]


def _what(shapes, world, rank, dtype, layouts=None):
    lay = "" if not layouts or set(layouts) == {"contiguous"} else f", layouts {layouts}"
    return (f"flatten_shard(tensors of shapes {[tuple(s) for s in shapes]}, {dtype}{lay}, world={world}, "
            f"rank={rank})")


def _shard(student, tensors, world, rank, layouts, what):
    res = student.call("flatten_shard_call", tensors=tensors, layouts=layouts, world=world, rank=rank)
    if res["error"]:
        fail(f"{what} raised {res['error']['type']}: {res['error']['message']}")
    out = res["out"]
    expect(out["kind"] == "tensor", f"{what} returned a {out['kind']}, not a tensor")
    return res


def _same(got, want, what, pad_from=None):
    """pad_from: the piece's first padding element, if any (the probe fills uninitialised memory with NaN)."""
    expect(tuple(got.shape) == tuple(want.shape), f"{what}: expected shape {tuple(want.shape)}, got {tuple(got.shape)}")
    expect(got.dtype == want.dtype, f"{what}: expected dtype {want.dtype}, got {got.dtype}")
    if not torch.equal(_bits(got), _bits(want)):
        i = int((_bits(got) != _bits(want)).reshape(-1).nonzero()[0])
        pad = "" if pad_from is None or i < pad_from else \
            " (a padding element: the text pads with zeros; memory from torch.empty / new_empty is not zeroed)"
        fail(f"{what}: element {i} is {got.reshape(-1)[i].item()!r}, expected {want.reshape(-1)[i].item()!r}{pad} "
             f"(expected {want.tolist()}, got {got.tolist()})")


def _pad_from(tensors, world, rank):
    """Where the padding starts in rank's piece (None when the piece has none)."""
    n = sum(t.numel() for t in tensors)
    k = math.ceil(n / world)
    return max(0, n - rank * k) if n < (rank + 1) * k else None


@pytest.mark.parametrize("case", range(len(CASES)))
def test_flatten_shard_every_rank(student, gen, case):
    """every rank's piece equals the judge's flat, zero-padded buffer cut into world equal pieces"""
    shapes, world = CASES[case]
    tensors = _tensors(gen, shapes, torch.float64)
    for rank in range(world):
        what = _what(shapes, world, rank, "float64")
        if not sum(t.numel() for t in tensors):
            what += " (every tensor is empty: n = 0, so k = ceil(0 / world) = 0 and every rank's piece is empty)"
        res = _shard(student, tensors, world, rank, ["contiguous"] * len(tensors), what)
        _same(res["out"]["tensor"], _expected(tensors, world, rank), what, _pad_from(tensors, world, rank))


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.float16])
def test_flatten_shard_keeps_dtype(student, gen, dtype):
    """the piece has the inputs' dtype (float32, int64, float16) and their elements bit for bit (-0.0, inf, NaN,
    int64 extremes), padding included"""
    for shapes, world in (CASES[2], CASES[3]):  # padding in the last piece; pieces of padding only
        tensors = _with_edges(_tensors(gen, shapes, dtype), dtype)
        for rank in (0, world - 1):
            what = _what(shapes, world, rank, dtype)
            res = _shard(student, tensors, world, rank, ["contiguous"] * len(tensors), what)
            _same(res["out"]["tensor"], _expected(tensors, world, rank), what, _pad_from(tensors, world, rank))


@pytest.mark.parametrize("layout", ["transposed", "strided", "offset"])
def test_flatten_shard_noncontiguous(student, gen, layout):
    """non-contiguous inputs are read in row-major order, as reshape(-1) reads them"""
    shapes, world = [(3, 4), (5, 2), (3,)], 3
    tensors = _tensors(gen, shapes, torch.float64)
    layouts = [layout] * len(shapes)
    for rank in range(world):
        what = _what(shapes, world, rank, "float64", layouts)
        res = _shard(student, tensors, world, rank, layouts, what)
        _same(res["out"]["tensor"], _expected(tensors, world, rank), what)


def test_flatten_shard_tensor_twice_in_the_list(student, gen):
    """a tensor object that stands twice in the list (tied weights) is flattened at each of its places"""
    # held-out round 24: a flatten_shard that kept each tensor object once (FSDP's treatment of shared parameters)
    # dropped the second occurrence: n, k and every piece came out wrong
    a, b = _tensors(gen, [(3, 2), (5,)], torch.float64)
    tensors, layouts, world = [a, b, a], ["contiguous", "contiguous", "same:0"], 3
    for rank in range(world):
        what = (f"flatten_shard([a, b, a], world={world}, rank={rank}) (a of shape (3, 2) and b of shape (5,), float64; "
                f"the list holds the tensor object a twice, so n = 17 and k = 6)")
        res = _shard(student, tensors, world, rank, layouts, what)
        _same(res["out"]["tensor"], _expected(tensors, world, rank), what, _pad_from(tensors, world, rank))


def test_flatten_shard_new_tensor_inputs_unchanged(student, gen):
    """the piece is a new tensor (not a view of an input); the input list and its tensors are left unchanged"""
    for shapes, world in (CASES[4], CASES[5], ([(8,)], 2), ([(2, 4)], 1), CASES[2]):
        tensors = _tensors(gen, shapes, torch.float64)
        for rank in range(world):
            what = _what(shapes, world, rank, "float64")
            res = _shard(student, tensors, world, rank, ["contiguous"] * len(tensors), what)
            expect(not res["aliases"], f"{what} returned a view of an input tensor (it shares its memory); the text "
                                       f"asks for a new tensor")
            expect(res["unchanged"], f"{what} changed an input tensor")
            expect(res["list_unchanged"], f"{what} changed the list tensors itself (it now holds "
                                          f"{res['list_len']} tensors, not {len(tensors)}, or other ones): the "
                                          f"list is an input too; build the padding in a new tensor")
            _same(res["out"]["tensor"], _expected(tensors, world, rank), what)
            expect(res["out"]["shape"] == [math.ceil(sum(math.prod(s) for s in shapes) / world)] and
                   res["out"]["device"] == "cpu", f"{what}: expected a 1-D tensor on the cpu, got shape "
                                                 f"{res['out']['shape']} on {res['out']['device']}")


# (case, dtype) of the device checks: padding or none, shards of padding only, every tensor empty; several dtypes
DEVICE_CASES = [(1, torch.float32), (2, torch.int64), (3, torch.float16), (6, torch.float64)]
OFF_DEFAULT = ("off the default device (the grader's stand-in for cuda:rank: every tensor on the meta device, or, "
               "where the code needs values, on the cpu with meta as the default device)")


def test_flatten_shard_on_inputs_device(student, gen):
    """off the default device (meta inputs, a stand-in for cuda:rank) the piece is made on the inputs' device,
    padding included, with their dtype"""
    for case, dtype in DEVICE_CASES:
        shapes, world = CASES[case]
        tensors = _tensors(gen, shapes, dtype)
        k = math.ceil(sum(math.prod(s) for s in shapes) / world)
        for rank in (0, world - 1):
            what = _what(shapes, world, rank, dtype)  # the same call on the cpu, values compared
            res = _shard(student, tensors, world, rank, ["contiguous"] * len(tensors), what)
            _same(res["out"]["tensor"], _expected(tensors, world, rank), what)
            what = _what(shapes, world, rank, dtype) + " with every tensor " + OFF_DEFAULT
            res = student.call("flatten_shard_call", tensors=tensors, layouts=["contiguous"] * len(tensors),
                               world=world, rank=rank, device="meta")
            if res["error"]:
                fail(f"{what} raised {res['error']['type']}: {res['error']['message']} (a tensor made without "
                     f"device= lands on the default device, not the inputs'; make it with t.new_zeros(...) or "
                     f"device=t.device)")
            out = res["out"]
            expect(out["kind"] == "tensor" and out["device"] == "meta" and out["shape"] == [k] and
                   out["dtype"] == str(dtype),
                   f"{what}: expected a {dtype} tensor of shape [{k}] on the inputs' device, got "
                   f"{out.get('dtype')} {out.get('shape')} on {out.get('device')}")


def _unflatten(student, tensors, world, device="cpu", layout="contiguous"):
    shards = [_expected(tensors, world, r).clone() for r in range(world)]
    shapes = [list(t.shape) for t in tensors]
    what = (f"unflatten_shards({world} shards of {shards[0].numel()}{'' if layout == 'contiguous' else ', ' + layout}, "
            f"shapes {[tuple(s) for s in shapes]})")
    res = student.call("unflatten_call", shards=shards, shapes=shapes, device=device, layout=layout)
    if res["error"]:
        fail(f"{what} raised {res['error']['type']}: {res['error']['message']}")
    expect(res["kind"] in ("list", "tuple") and len(res["outs"]) == len(tensors),
           f"{what}: expected a list of {len(tensors)} tensors, got a {res['kind']} of {len(res['outs'])}")
    for i, o in enumerate(res["outs"]):
        expect(o["kind"] == "tensor", f"{what}: item {i} is a {o['kind']}, not a tensor")
    return res, what


@pytest.mark.parametrize("case", range(len(CASES)))
def test_unflatten_restores_tensors(student, gen, case):
    """unflatten_shards gives back each original tensor, in order, with its shape, and drops the padding (the
    shards may be non-contiguous 1-D tensors: a flatten_shard may return a strided view of a new buffer); the
    values bit for bit (-0.0, inf, NaN, int64 extremes)"""
    shapes, world = CASES[case]
    dtype = (torch.float64, torch.int64, torch.float32)[case % 3]
    tensors = _with_edges(_tensors(gen, shapes, dtype), dtype)
    res, what = _unflatten(student, tensors, world, layout="strided" if case % 2 else "contiguous")
    for i, (o, t) in enumerate(zip(res["outs"], tensors)):
        _same(o["tensor"], t, f"{what}, tensor {i}")


def test_unflatten_new_contiguous(student, gen):
    """unflatten_shards returns contiguous tensors that share no memory with the shards, which stay unchanged"""
    for shapes, world in (CASES[0], CASES[4], ([(2, 3)], 1)):
        tensors = _tensors(gen, shapes, torch.float64)
        res, what = _unflatten(student, tensors, world)
        expect(not res["aliases"], f"{what}: a returned tensor shares memory with a shard; the text asks for new "
                                   f"tensors")
        expect(res["unchanged"], f"{what} changed a shard")
        for i, (o, t) in enumerate(zip(res["outs"], tensors)):
            expect(o["contiguous"], f"{what}: tensor {i} (shape {tuple(o['shape'])}) is not contiguous")
            _same(o["tensor"], t, f"{what}, tensor {i}")


def test_unflatten_on_shards_device(student, gen):
    """off the default device (meta shards, a stand-in for cuda:rank) the tensors come back on the shards' device
    with their dtype"""
    for case, dtype in DEVICE_CASES:
        shapes, world = CASES[case]
        tensors = _tensors(gen, shapes, dtype)
        res, what = _unflatten(student, tensors, world)  # the same call on the cpu, values compared
        for i, (o, t) in enumerate(zip(res["outs"], tensors)):
            _same(o["tensor"], t, f"{what}, tensor {i}")
        res, what = _unflatten(student, tensors, world, device="meta")
        for i, (o, t) in enumerate(zip(res["outs"], tensors)):
            expect(o["device"] == "meta" and o["dtype"] == str(dtype) and o["shape"] == list(t.shape),
                   f"{what} {OFF_DEFAULT}: tensor {i} is {o['dtype']} {o['shape']} on {o['device']}, expected "
                   f"{dtype} {list(t.shape)} on the shards' device")
