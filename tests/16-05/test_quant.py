"""Hidden checks of quantize and dequantize (exercise 1), against torch.quantize_per_tensor /
torch.quantize_per_channel (their int_repr()) and the dequantize() of PyTorch's quantized tensors."""
import warnings

import pytest
import torch

from course.judge.expect import expect, expect_equal

pytestmark = pytest.mark.task("quant")
QD = {"int8": torch.qint8, "uint8": torch.quint8}
RANGE = {"int8": (-128, 127), "uint8": (0, 255)}
BUILTIN = ("quantize_per_tensor", "quantize_per_channel", "fake_quantize", "dequantize", "int_repr",
           "_make_per_tensor_quantized_tensor", "_make_per_channel_quantized_tensor", "quantize_per_tensor_dynamic")


def torch_levels(x, scale, zp, dtype, axis=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if axis is None:
            return torch.quantize_per_tensor(x, scale, zp, QD[dtype]).int_repr()
        return torch.quantize_per_channel(x, scale, zp, axis % x.dim(), QD[dtype]).int_repr()


def torch_dequant(q, scale, zp, axis=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if axis is None:
            return torch._make_per_tensor_quantized_tensor(q, scale, zp).dequantize()
        return torch._make_per_channel_quantized_tensor(q, scale.double(), zp, axis % q.dim()).dequantize()


def rand_params(gen, dtype, c=None):
    lo, hi = RANGE[dtype]
    n = 1 if c is None else c
    scale = torch.rand(n, generator=gen) * 0.2 + 0.002
    zp = torch.randint(lo, hi + 1, (n,), generator=gen)
    zp = torch.clamp(zp, lo + 20, hi - 20) if dtype == "uint8" else torch.clamp(zp, -40, 40)
    if c is None:
        return float(scale[0]), int(zp[0])
    return scale, zp


def run_quant(student, what, x, scale, zp, dtype, axis=None, layout="contiguous"):
    res = student.call("quant", x=x, scale=scale, zero_point=zp, dtype=dtype, axis=axis, layout=layout)
    out = res["out"]
    expect(isinstance(out, torch.Tensor), f"{what} returned {out}, not a tensor")
    expect_equal(out.dtype, getattr(torch, dtype), f"the dtype of {what}")
    return res


def check_levels(student, what, x, scale, zp, dtype, axis=None, layout="contiguous"):
    res = run_quant(student, what, x, scale, zp, dtype, axis, layout)
    want = torch_levels(x, scale, zp, dtype, axis)
    got = res["out"]
    expect_equal(tuple(got.shape), tuple(want.shape), f"the shape of {what}")
    bad = got.to(torch.int64) != want.to(torch.int64)
    if bad.any():
        i = tuple(int(v) for v in bad.nonzero()[0])
        expect(False, f"{what}: {int(bad.sum())} of {bad.numel()} levels differ from PyTorch's; first at index {i}: "
               f"x = {x[i].item()!r}, expected level {want[i].item()}, got {got[i].item()} (round(x * (1/scale)) with "
               f"1/scale in float32, halves to even, then + zero_point, clamped)")
    return res


@pytest.mark.parametrize("dtype,shape", [("int8", (7,)), ("uint8", (3, 5)), ("int8", (2, 3, 4, 5))], ids=str)
def test_per_tensor_matches_torch(student, gen, dtype, shape):
    """per-tensor levels equal torch.quantize_per_tensor(...).int_repr(), values in and far outside the range"""
    scale, zp = rand_params(gen, dtype)
    x = torch.randn(shape, generator=gen) * scale * 90
    what = f"quantize(x {shape}, {scale:.6g}, {zp}, torch.{dtype})"
    check_levels(student, what, x, scale, zp, dtype)


def near_boundaries(gen, scale, n):
    """Values within a few ulps of k + 1/2 levels, kept where x / scale and x * (1/scale) round differently."""
    s32 = torch.tensor(scale, dtype=torch.float32)
    inv = 1.0 / s32
    found = []
    for _ in range(40):
        k = torch.randint(-100, 100, (4096,), generator=gen).to(torch.float32) + 0.5
        x = k * s32
        x = torch.nextafter(x, x + torch.randint(-1, 2, x.shape, generator=gen).to(torch.float32))
        diff = torch.round(x / s32) != torch.round(x * inv)
        found.append(x[diff])
        if sum(len(f) for f in found) >= n:
            break
    return torch.cat(found)[:n]


@pytest.mark.parametrize("dtype", ["int8", "uint8"])
def test_ties_and_inverse_scale(student, gen, dtype):
    """halves go to the even level (round before adding an odd zero point), and x * (1/scale) is used, not x / scale,
    per tensor and per channel"""
    lo, hi = RANGE[dtype]
    zp = 3 if dtype == "int8" else 127  # odd: round(v) + zp differs from round(v + zp) at halves
    halves = (torch.arange(-20, 20, dtype=torch.float32) + 0.5) * 0.25
    what = f"quantize(x, 0.25, {zp}, torch.{dtype}) for x = (k + 1/2) * 0.25 (exact halves: round to the even level)"
    check_levels(student, what, halves, 0.25, zp, dtype)
    for _ in range(20):  # for about 1 scale in 60 the two roundings never part near a half: draw another
        scale = float(torch.rand((), generator=gen)) * 0.05 + 0.005
        x = near_boundaries(gen, scale, 64)
        if x.numel() > 8:
            break
    expect(x.numel() > 8, "the check found too few inputs near a level boundary (a grading error)")
    what = (f"quantize(x, {scale!r}, {zp}, torch.{dtype}) for {x.numel()} values next to a half level, where "
            f"x / scale and x * (1 / scale) round differently")
    check_levels(student, what, x, scale, zp, dtype)
    # per channel the same: three channels, each with its own scale and values next to its half levels
    scales, rows = [], []
    for _ in range(60):
        s = float(torch.rand((), generator=gen)) * 0.05 + 0.005
        row = near_boundaries(gen, s, 16)
        if row.numel() == 16:
            scales.append(s)
            rows.append(row)
        if len(rows) == 3:
            break
    expect(len(rows) == 3, "the check found too few inputs near a level boundary (a grading error)")
    x, s, z = torch.stack(rows), torch.tensor(scales, dtype=torch.float32), torch.full((3,), zp, dtype=torch.int64)
    what = (f"quantize(x (3, 16), scale (3,), zero_point (3,), torch.{dtype}, axis=0) for values next to each "
            f"channel's half levels, where x / scale and x * (1 / scale) round differently")
    check_levels(student, what, x, s, z, dtype, axis=0)


def test_inverse_of_a_python_float_scale(student, gen, double_scale_inputs):
    """a Python float scale is made float32 first and inverted in float32, 1 / float32(scale), not 1.0 / scale
    taken in double precision (the two differ in the last bit for many scales)"""
    scale, x = double_scale_inputs(gen, 64)
    expect(x.numel() >= 4, "the check found no scale whose two inverses differ (a grading error)")
    what = (f"quantize(x, {scale!r}, 3, torch.int8) for {x.numel()} values next to a half level, where "
            f"x * float32(1.0 / scale) rounds differently from x * (1 / float32(scale))")
    check_levels(student, what, x, scale, 3, "int8")


@pytest.mark.parametrize("dtype", ["int8", "uint8"])
def test_clamps_extremes(student, gen, dtype):
    """levels beyond the range saturate at qmin / qmax (no wrap-around), for values up to a billion levels away
    (past 2^31 levels the next check decides, with the judge's own computation rather than PyTorch's kernel)"""
    scale, zp = rand_params(gen, dtype)
    x = torch.tensor([0.0, -0.0, 1e3, -1e3, 1e9 * scale, -1e9 * scale, 3e5 * scale, -3e5 * scale, 200 * scale, -200 * scale,
                      scale * 1e-3])
    what = f"quantize(x, {scale:.6g}, {zp}, torch.{dtype}) for x = {[f'{v:.3g}' for v in x.tolist()]}"
    check_levels(student, what, x, scale, zp, dtype)


@pytest.mark.parametrize("dtype", ["int8", "uint8"])
def test_saturates_past_int32_levels(student, gen, dtype):
    """levels past 2^31 and infinities saturate too, per tensor and per channel: clamp before any integer cast"""
    lo, hi = RANGE[dtype]
    scale, zp = rand_params(gen, dtype)
    far = torch.tensor([3e9, -3e9, 1e10, -1e10, 1e20, -1e20], dtype=torch.float32)
    x = torch.cat([far * scale, torch.tensor([float("inf"), float("-inf")])])
    # the judge's own computation of clamp(round(x * inv) + zero_point, qmin, qmax): every level here is
    # billions of levels beyond the range, so it is qmax above 0 and qmin below
    want = torch.where(x > 0, hi, lo)
    for axis, s, z in ((None, scale, zp),
                       (1, torch.full((2,), scale, dtype=torch.float32), torch.full((2,), zp, dtype=torch.int64))):
        xx = x if axis is None else x.reshape(4, 2)
        what = (f"quantize(x, {scale:.6g}, {zp}, torch.{dtype})" if axis is None else
                f"quantize(x (4, 2), scale (2,) = {scale:.6g}, zero_point (2,) = {zp}, torch.{dtype}, axis=1)")
        what += f" for x = {[f'{v:.3g}' for v in xx.reshape(-1).tolist()]}"
        res = run_quant(student, what, xx, s, z, dtype, axis)
        got = res["out"].reshape(-1).to(torch.int64)
        expect_equal(tuple(got.shape), tuple(want.shape), f"the number of levels of {what}")
        bad = got != want
        if bad.any():
            i = int(bad.nonzero()[0])
            expect(False, f"{what}: x = {x[i].item()!r} gave level {got[i].item()}, expected {want[i].item()}: each level "
                   f"is clamp(round(x * inv) + zero_point, qmin, qmax), and values beyond the range saturate (an integer "
                   f"cast before the clamp overflows past 2^31 levels or on an infinity)")


CHANNEL_CASES = [((6, 5), 0, "int8"), ((4, 7), 1, "uint8"), ((2, 3, 4), -1, "int8"), ((3, 2, 5, 4), 1, "uint8"),
                 ((5,), 0, "uint8")]


@pytest.mark.parametrize("shape,axis,dtype", CHANNEL_CASES, ids=[f"{s}-axis{a}-{d}" for s, a, d in CHANNEL_CASES])
def test_per_channel_matches_torch(student, gen, dtype, shape, axis):
    """per-channel levels equal torch.quantize_per_channel(...).int_repr() along any axis (negative too)"""
    c = shape[axis]
    scale, zp = rand_params(gen, dtype, c)
    scale = scale * (10.0 ** torch.arange(c, dtype=torch.float32) / 10.0 ** (c // 2))  # very different channels
    x = torch.randn(shape, generator=gen) * 60 * scale.reshape([-1 if d == axis % len(shape) else 1
                                                               for d in range(len(shape))])
    what = f"quantize(x {shape}, scale ({c},), zero_point ({c},), torch.{dtype}, axis={axis})"
    res = check_levels(student, what, x, scale, zp, dtype, axis)
    expect(res["params_unchanged"], f"{what} changed the caller's scale or zero_point tensor in place (both functions "
           f"leave their inputs unchanged: compute 1 / scale into a new tensor)")


DEQ_CASES = [("uint8", None, (4, 6)), ("int8", None, (3, 5)), ("int8", 1, (4, 6)), ("uint8", -1, (2, 3, 4)),
             ("int8", -3, (2, 3, 4))]


@pytest.mark.parametrize("dtype,axis,shape", DEQ_CASES,
                         ids=[f"{d}-{'tensor' if a is None else 'channel'}" + ("" if a is None or a >= 0 else str(a))
                              for d, a, _ in DEQ_CASES])
def test_dequantize_matches_torch(student, gen, dtype, axis, shape):
    """dequantize gives float32 (q - zero_point) * scale, PyTorch's dequantize(), per tensor and per channel along
    any axis (negative too)"""
    lo, hi = RANGE[dtype]
    q = torch.randint(lo, hi + 1, shape, generator=gen).to(getattr(torch, dtype))
    q.view(-1)[:2] = torch.tensor([lo, hi])
    c = None if axis is None else shape[axis]
    scale, zp = rand_params(gen, dtype, c)
    if axis is None and zp == 0:
        zp = 7  # a nonzero zero point: q - zero_point leaves q's range at one of its ends (wraps in int8 or uint8)
    what = f"dequantize(q {shape} of {dtype}, " + (f"{scale:.6g}, {zp})" if axis is None else
                                                   f"scale ({c},), zp ({c},), axis={axis})")
    res = student.call("dequant", q=q, scale=scale, zero_point=zp, axis=axis)
    out = res["out"]
    expect(isinstance(out, torch.Tensor), f"{what} returned {out}, not a tensor")
    expect_equal(out.dtype, torch.float32, f"the dtype of {what}")
    want = torch_dequant(q, scale, zp, axis)
    expect_equal(tuple(out.shape), tuple(want.shape), f"the shape of {what}")
    bad = out != want
    if bad.any():
        i = tuple(int(v) for v in bad.nonzero()[0])
        expect(False, f"{what}: {int(bad.sum())} of {bad.numel()} values differ from PyTorch's dequantize(); first at "
               f"{i}: level {q[i].item()}, expected {want[i].item()!r}, got {out[i].item()!r}")
    expect(res["unchanged"], f"{what} changed q in place")
    expect(res["params_unchanged"], f"{what} changed the caller's scale or zero_point tensor in place")


LAYOUTS = ["transposed", "channels_last", "broadcast", "strided", "offset"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_any_layout(student, gen, layout):
    """inputs of any memory layout give the same levels and values, per tensor and per channel along the first, the
    last and a middle axis, and are left unchanged"""
    shape = (2, 3, 4, 5)  # 4-D: channels-last applies, and a transposed or broadcast x cannot be flattened by .view
    scale, zp = rand_params(gen, "int8")
    x = torch.randn(shape, generator=gen) * scale * 100
    if layout == "broadcast":
        x[1] = x[0]  # equal along dim 0: given as x[:1].expand(...), stride 0
    where = f"x {shape} {layout}"
    what = f"quantize({where}, {scale:.6g}, {zp}, torch.int8)"
    res = check_levels(student, what, x, scale, zp, "int8", layout=layout)
    expect(res["unchanged"], f"{what} changed x in place")
    middle = [1, 2, -2, -3][int(torch.randint(0, 4, (), generator=gen))]
    for axis, dtype in ((0, "int8"), (-1, "uint8"), (middle, "int8")):
        c = shape[axis]
        s, z = rand_params(gen, dtype, c)
        what = f"quantize({where}, scale ({c},), zero_point ({c},), torch.{dtype}, axis={axis})"
        res = check_levels(student, what, x, s, z, dtype, axis, layout)
        expect(res["unchanged"], f"{what} changed x in place")
    for axis in (None, -1 if middle in (1, -3) else 0):
        s, z = (scale, zp) if axis is None else rand_params(gen, "int8", shape[axis])
        q = torch_levels(x, s, z, "int8", axis)
        what = f"dequantize(q {shape} of int8 {layout}, " + (f"{scale:.6g}, {zp})" if axis is None else
                                                           f"scale ({shape[axis]},), zp ({shape[axis]},), axis={axis})")
        res = student.call("dequant", q=q, scale=s, zero_point=z, axis=axis, layout=layout)
        want = torch_dequant(q, s, z, axis)
        out = res["out"]
        expect(isinstance(out, torch.Tensor) and out.dtype == torch.float32 and tuple(out.shape) == shape,
               f"{what}: expected a torch.float32 tensor of shape {shape}, got " +
               (f"{out.dtype} of shape {tuple(out.shape)}" if isinstance(out, torch.Tensor) else repr(out)))
        bad = out != want
        if bad.any():
            i = tuple(int(v) for v in bad.nonzero()[0])
            expect(False, f"{what}: {int(bad.sum())} of {bad.numel()} values differ from PyTorch's dequantize(); "
                   f"first at {i}: level {q[i].item()}, expected {want[i].item()!r}, got {out[i].item()!r}")
        expect(res["unchanged"], f"{what} changed q in place")


def test_zero_size_and_0dim(student, gen):
    """zero-size and 0-dim tensors, per tensor and per channel (zero channels too), through quantize and dequantize
    (each keeps the shape)"""
    check_levels(student, "quantize(x of shape (0, 3), 0.1, 2, torch.int8)", torch.zeros(0, 3), 0.1, 2, "int8")
    s, z = torch.tensor([0.1, 0.2, 0.3]), torch.tensor([1, 2, 3])
    check_levels(student, "quantize(x of shape (0, 3), scale (3,), zero_point (3,), torch.uint8, axis=1)",
                 torch.zeros(0, 3), s, z, "uint8", 1)
    # zero channels: x (2, 0) along axis 1, with scale and zero_point of shape (0,) (one entry per index: none)
    check_levels(student, "quantize(x of shape (2, 0), scale (0,), zero_point (0,), torch.int8, axis=1) (zero "
                 "channels)", torch.zeros(2, 0), torch.zeros(0), torch.zeros(0, dtype=torch.int64), "int8", 1)
    v = float(torch.randn((), generator=gen)) * 3
    check_levels(student, f"quantize(torch.tensor({v:.4g}), 0.05, 7, torch.uint8)", torch.tensor(v), 0.05, 7, "uint8")
    q = torch.tensor(200, dtype=torch.uint8)
    res = student.call("dequant", q=q, scale=0.05, zero_point=7)
    expect(isinstance(res["out"], torch.Tensor) and torch.equal(res["out"], torch_dequant(q, 0.05, 7)),
           f"dequantize(torch.tensor(200, dtype=torch.uint8), 0.05, 7): expected {torch_dequant(q, 0.05, 7)}, "
           f"got {res['out']}")
    # dequantize keeps a zero-size q's shape too, per tensor and per channel (PyTorch's dequantize() of it)
    for q, s, z, axis in ((torch.zeros(0, 3, dtype=torch.uint8), 0.1, 2, None),
                          (torch.zeros(2, 0, dtype=torch.int8), torch.tensor([0.1, 0.2]), torch.tensor([1, -2]), 0),
                          (torch.zeros(3, 0, dtype=torch.uint8), torch.zeros(0), torch.zeros(0, dtype=torch.int64), -1)):
        what = (f"dequantize(q of shape {tuple(q.shape)} and dtype {q.dtype}, " +
                ("0.1, 2)" if axis is None else
                 f"scale ({len(s)},), zero_point ({len(z)},), axis={axis})" + (" (zero channels)" if not len(s) else "")))
        res = student.call("dequant", q=q, scale=s, zero_point=z, axis=axis)
        want = torch_dequant(q, s, z, axis)
        out = res["out"]
        expect(isinstance(out, torch.Tensor) and out.dtype == want.dtype and tuple(out.shape) == tuple(want.shape),
               f"{what}: expected a torch.float32 tensor of shape {tuple(want.shape)} (the shape of q: both functions "
               f"take zero-size tensors), got " + (f"{out.dtype} of shape {tuple(out.shape)}"
                                                   if isinstance(out, torch.Tensor) else repr(out)))


def test_does_not_call_pytorch_quantizer(student, gen):
    """written from tensor operations: no quantize, fake-quantize or dequantize op of PyTorch runs inside"""
    x = torch.randn(3, 4, generator=gen)
    used = set()
    for axis, (s, z) in ((None, (0.05, 1)), (0, (torch.rand(3, generator=gen) + 0.01, torch.tensor([0, 1, 2])))):
        res = student.call("quant", x=x, scale=s, zero_point=z, dtype="int8", axis=axis)
        used |= {op for op in res["ops"] if any(b in op for b in BUILTIN) or "::" in op}  # "ns::op": its own
        q = torch_levels(x, s, z, "int8", axis)
        res2 = student.call("dequant", q=q, scale=s, zero_point=z, axis=axis)
        used |= {op for op in res2["ops"] if any(b in op for b in BUILTIN) or "::" in op}
        expect(isinstance(res["out"], torch.Tensor) and torch.equal(res["out"], q),
               "quantize(x (3, 4), ...) differs from torch.quantize_per_tensor / per_channel")
    expect(not used, f"quantize / dequantize ran PyTorch's quantizer or an operator of its own registry, whose "
           f"inside no check sees ({', '.join(sorted(used))}): write them from round, clamp and arithmetic")


@pytest.mark.parametrize("case", [((3, 4), None, "int8"), ((2, 5), 1, "uint8"), ((4, 2, 3), 0, "int8")],
                         ids=["per-tensor", "per-channel-1", "per-channel-0"])
def test_on_another_device(student, gen, case):
    """on tensors on another device (meta, the grader's GPU stand-in) the results are there, with the right dtypes"""
    shape, axis, dtype = case
    res = student.call("quant_on_meta", shape=list(shape), dtype=dtype, axis=axis)
    what = (f"quantize / dequantize of x {shape} on the meta device (or, where the code reads values, on the CPU with "
            f"meta as the default device)" + ("" if axis is None else f", axis={axis}"))
    expect("error" not in res, f"{what} (the grader's stand-in for a GPU: a tensor made without device= lands on the "
           f"CPU) raised {res.get('error')}: create every tensor on the input's device")
    expect(res["devices"] == ["meta", "meta"] and res["shapes"] == [list(shape)] * 2
           and res["dtypes"] == [f"torch.{dtype}", "torch.float32"],
           f"{what}: expected a torch.{dtype} and a torch.float32 tensor of shape {list(shape)} on meta, got "
           f"{res['dtypes']} of shapes {res['shapes']} on {res['devices']}")
